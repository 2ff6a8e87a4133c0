const levenshtein = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * Existing ECCNs closest to a missing one: first the same category and product group by number
 * (`3A002` → 3A001, 3A003 …), then near-misses one character away (`3B001` → 3A001).
 */
export const nearestEccns = (known: ReadonlyArray<string>, wanted: string, limit = 5): Array<string> => {
  const number = Number(wanted.slice(2))
  const sameGroup = known
    .filter((eccn) => eccn.slice(0, 2) === wanted.slice(0, 2))
    .map((eccn) => ({ eccn, distance: Math.abs(Number(eccn.slice(2)) - number) }))
    .sort((a, b) => a.distance - b.distance || a.eccn.localeCompare(b.eccn))
    .slice(0, limit)
    .map(({ eccn }) => eccn)
  const oneEdit = known.filter((eccn) => !sameGroup.includes(eccn) && levenshtein(eccn, wanted) === 1)
  return [...sameGroup, ...oneEdit].slice(0, limit)
}
