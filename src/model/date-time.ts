import { z } from 'zod';

/** RFC 3339 date-time with a zone, as ajv-formats' full `date-time` reads it (`t` or a space between, `z` in either case). */
const RFC3339 = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)$/;

/** A date-time field: the generated file carries `format: date-time` (ajv-formats checks it), zod a matching test. */
export const dateTimeField = z
  .string()
  .refine((value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T'))), { error: 'must be an RFC 3339 date-time' })
  .meta({ format: 'date-time' });
