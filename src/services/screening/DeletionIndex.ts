import { stepEvery, type Steps } from "../Cooperative.ts"
/**
 * Symmetric-deletion index (the SymSpell idea) over the token dictionary: every token is filed
 * under the hashes of the strings left after deleting up to `depth(length)` characters, and a
 * query token looks up its own deletions. Two tokens within edit distance 2 always share one, so
 * misspelt tokens are found without comparing against the whole dictionary. Keys are 32-bit
 * hashes in typed arrays (an open-addressing table and CSR postings: tens of MB for the full list
 * rather than a map of a million strings); a collision only adds a candidate that the similarity
 * check then rejects.
 */

/**
 * Deletions generated for a token of this length: none for 1–2 letters, one for 3–5, two beyond,
 * which finds every pair within the edit budget of `TokenSimilarity` (one edit up to five letters).
 */
export const deletionDepth = (length: number): number => length <= 2 ? 0 : length <= 5 ? 1 : 2

const fnvOffset = 0x811c9dc5
const fnvPrime = 0x01000193

/** FNV-1a of `token` with the characters at positions `skipA` and `skipB` left out. */
const hashWithout = (token: string, skipA: number, skipB: number): number => {
  let hash = fnvOffset
  for (let i = 0; i < token.length; i++) {
    if (i === skipA || i === skipB) continue
    hash = Math.imul(hash ^ token.charCodeAt(i), fnvPrime)
  }
  return hash >>> 0
}

/** Writes the hash of every deletion variant of `token` (the token itself included) into `out`. */
const deletionHashes = (token: string, out: Array<number>): Array<number> => {
  out.length = 0
  const depth = deletionDepth(token.length)
  out.push(hashWithout(token, -1, -1))
  if (depth < 1) return out
  for (let i = 0; i < token.length; i++) {
    out.push(hashWithout(token, i, -1))
    if (depth < 2) continue
    for (let j = i + 1; j < token.length; j++) out.push(hashWithout(token, i, j))
  }
  return out
}

const idBits = 2 ** 21

export interface DeletionIndex {
  /**
   * The ids of indexed tokens sharing a deletion variant with `token`, written to `out` (which is
   * returned); an id may appear more than once.
   */
  readonly neighbours: (token: string, out: Array<number>) => Array<number>
  readonly size: number
}

export function* buildSteps(tokens: ReadonlyArray<string>): Steps<DeletionIndex> {
  if (tokens.length >= idBits) throw new RangeError("too many distinct tokens for the deletion index")
  const hashes: Array<number> = []
  let count = 0
  for (const [id, token] of tokens.entries()) {
    if (id % stepEvery === 0) yield
    count += deletionHashes(token, hashes).length
  }
  const packed = new Float64Array(count)
  let at = 0
  for (let id = 0; id < tokens.length; id++) {
    if (id % stepEvery === 0) yield
    for (const hash of deletionHashes(tokens[id]!, hashes)) packed[at++] = hash * idBits + id
  }
  packed.sort()

  const keys = new Uint32Array(count)
  const starts = new Int32Array(count + 1)
  const ids = new Int32Array(count)
  let keyCount = 0
  let idCount = 0
  let previous = -1
  for (let i = 0; i < count; i++) {
    const value = packed[i]!
    if (value === previous) continue
    previous = value
    const hash = Math.floor(value / idBits)
    if (keyCount === 0 || keys[keyCount - 1] !== hash) {
      keys[keyCount] = hash
      starts[keyCount] = idCount
      keyCount++
    }
    ids[idCount++] = value - hash * idBits
  }
  starts[keyCount] = idCount
  const postingStarts = starts.slice(0, keyCount + 1)
  const postingIds = ids.slice(0, idCount)

  // Open addressing (linear probing) from hash to key slot: one or two memory reads per lookup.
  const tableBits = Math.max(4, Math.ceil(Math.log2(keyCount * 2)))
  const tableMask = (1 << tableBits) - 1
  const tableKeys = new Uint32Array(1 << tableBits)
  const tableSlots = new Int32Array(1 << tableBits).fill(-1)
  const home = (hash: number) => Math.imul(hash, 0x9e3779b1) >>> (32 - tableBits)
  for (let slot = 0; slot < keyCount; slot++) {
    let at = home(keys[slot]!)
    while (tableSlots[at] !== -1) at = (at + 1) & tableMask
    tableKeys[at] = keys[slot]!
    tableSlots[at] = slot
  }
  const find = (hash: number): number => {
    for (let at = home(hash);; at = (at + 1) & tableMask) {
      const slot = tableSlots[at]!
      if (slot === -1 || tableKeys[at] === hash) return slot
    }
  }

  const scratch: Array<number> = []
  return {
    size: idCount,
    neighbours: (token, out) => {
      out.length = 0
      for (const hash of deletionHashes(token, scratch)) {
        const slot = find(hash)
        if (slot < 0) continue
        for (let k = postingStarts[slot]!; k < postingStarts[slot + 1]!; k++) out.push(postingIds[k]!)
      }
      return out
    }
  }
}
