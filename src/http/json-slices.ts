/**
 * JSON text of an answer with a long list, written a slice of the list at a time with a turn of the
 * event loop between slices: a remittance's 5,000 lines serialized at once held the loop 140 to 230 ms.
 * The text is what JSON.stringify gives the whole (the list's property last); the route sends it as
 * it is, so its fields must already be the schema's.
 */
export async function jsonInSlices<T extends object, K extends keyof T & string>(
  value: T,
  list: K,
  pause: () => Promise<void>,
  perSlice = 200,
): Promise<string> {
  const items = value[list] as unknown[];
  const rest: Partial<T> = { ...value };
  delete rest[list];
  const parts: string[] = [];
  for (let i = 0; i < items.length; i += perSlice) {
    if (i > 0) await pause();
    parts.push(
      items
        .slice(i, i + perSlice)
        .map((item) => JSON.stringify(item) ?? 'null')
        .join(','),
    );
  }
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(list)}:[${parts.join(',')}]}`;
}
