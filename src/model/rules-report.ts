/** `checker rules list` and `checker rules validate`. */
export interface RulesListReport {
  schemaVersion: 1;
  kind: 'rules-list';
  packs: {
    id: string;
    version: string;
    kind: string;
    subject: string;
    source: 'builtin' | 'repository';
    file: string;
    description: string;
    rules: { id: string; description: string; weight: number }[];
  }[];
  diagnostics: { code: string; severity: string; message: string }[];
}

export interface RulesValidateReport {
  schemaVersion: 1;
  kind: 'rules-validate';
  results: { file: string; valid: boolean; packId?: string; version?: string; rules?: number; error?: string }[];
}
