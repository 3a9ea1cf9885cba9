import { z } from 'zod';

/**
 * An enum-like response field that stays open: the values the API documents today are typed precisely, and
 * any value added later (the API may add fields and values in a minor release) still parses as a string.
 */
export function openEnum<const Values extends readonly [string, ...string[]]>(
  values: Values,
): z.ZodType<Values[number] | (string & {})> {
  // The union is what runs and what the JSON Schema shows (`anyOf: [enum, string]`); the cast only narrows
  // the inferred type from `string` to the documented literals plus `string & {}` for autocompletion.
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<Values[number] | (string & {})>;
}
