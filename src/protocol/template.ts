/**
 * @module protocol/template
 * A message with variable parts: `<name>` stands for a value, and `fill` puts the values in. The type of a
 * template's values is read off the template itself, so a caller cannot forget one or misspell its name.
 *
 * @example
 * fill('retry in <retryAfterSeconds> s', { retryAfterSeconds: 2 }) // 'retry in 2 s'
 */

/** The `<name>`s of a template, as a type. */
export type Placeholders<T extends string> = T extends `${string}<${infer Name}>${infer Rest}`
  ? Name | Placeholders<Rest>
  : never

/** Puts the values into a template's placeholders; a placeholder without a value stays as written. */
export function fill<T extends string>(template: T, values: Record<Placeholders<T>, string | number>): string {
  const named = values as Record<string, string | number>
  return template.replace(/<(\w+)>/g, (whole, name: string) => (name in named ? String(named[name]) : whole))
}
