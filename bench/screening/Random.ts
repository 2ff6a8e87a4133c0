/** A small seeded PRNG (mulberry32) so that every run generates the same evaluation set. */
export interface Random {
  /** Uniform in [0, 1). */
  readonly next: () => number
  /** Uniform integer in [0, n). */
  readonly int: (n: number) => number
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  readonly chance: (p: number) => boolean
  readonly shuffle: <A>(items: ReadonlyArray<A>) => Array<A>
}

export const make = (seed: number): Random => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p,
    shuffle: (items) => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(i + 1)
        const swap = copy[i]!
        copy[i] = copy[j]!
        copy[j] = swap
      }
      return copy
    }
  }
}
