/** created_by / updated_by of every row the seed writes (spec: writes are attributed). */
export const SEED_ACTOR = 'seed';

/** Rows an insert ... on conflict do nothing actually inserted. */
export async function insertedCount(
  result: Promise<{ numInsertedOrUpdatedRows?: bigint | undefined }>,
): Promise<number> {
  return Number((await result).numInsertedOrUpdatedRows ?? 0n);
}

/** A list written as comma-separated text (keeps long word lists compact): 'a, b,\n c' -> [a, b, c]. */
export function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
