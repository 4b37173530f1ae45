/** Route-level hooks, attached in onRoute by the modules that decide by route (auth, rate limit, headers). */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
