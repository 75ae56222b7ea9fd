import { parse as parseYaml } from 'yaml';
import type { Diagnostic } from '../model/diagnostic.js';
import type { SkillSummary } from '../model/graph.js';
import { getFirstParagraph, toPlainText } from './markdown.js';
import { isRecord } from '../text/is-record.js';
import { describeYamlProblem, toYamlProblem } from './yaml-error.js';

/** A skill or skill-folder name: plain characters only, so it can never name a path. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const SKILL_DESCRIPTION_CHARS = 1024;

/**
 * Summarises a SKILL.md as text only: `name` and `description` from YAML front matter, or the folder name
 * and the first paragraph. Nothing in it is executed or followed.
 */
export function parseSkillFile(path: string, text: string): { skill: SkillSummary; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const folder = path.split('/').slice(-2, -1)[0] ?? 'skill';
  let name = folder;
  let description: string | undefined;
  let body = text;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  if (frontMatter !== null) {
    body = text.slice(frontMatter[0].length);
    try {
      const data: unknown = parseYaml(frontMatter[1] ?? '', { maxAliasCount: 10 });
      if (isRecord(data)) {
        if (typeof data.name === 'string' && SAFE_NAME.test(data.name.trim())) name = data.name.trim();
        else if (data.name !== undefined) {
          diagnostics.push({
            code: 'skill/invalid-name',
            severity: 'info',
            message: `${path}: front matter name is not a plain name (letters, digits, ".", "_", "-"); the folder name "${folder}" is used`,
            location: { file: path },
          });
        }
        if (typeof data.description === 'string') description = data.description;
      }
    } catch (error) {
      diagnostics.push({
        code: 'skill/front-matter',
        severity: 'info',
        message: `${path}: front matter is not valid YAML (${describeYamlProblem(toYamlProblem(error, String(error)))}); the first paragraph is used`,
        location: { file: path },
      });
    }
  }
  return {
    skill: { name, description: toPlainText(description ?? getFirstParagraph(body), SKILL_DESCRIPTION_CHARS), path },
    diagnostics,
  };
}
