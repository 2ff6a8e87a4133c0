/** p50, p90, p99 and the maximum of `samples`, rounded to `decimals` places (nearest-rank, no interpolation). */
export const percentiles = (samples: ReadonlyArray<number>, decimals = 2) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const scale = 10 ** decimals
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! * scale) / scale
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }
}
