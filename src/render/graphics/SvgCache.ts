/**
 * satori's layouts of recent pictures, by their input. satori is deterministic (same element,
 * size and fonts give the same SVG), so a picture whose facts did not change (the draft and then
 * the final of one document, a document rendered again, the same certificate card for many
 * screenings) is not laid out again. A picture costs satori 3–8 ms of CPU; the cache is bounded
 * by entries and by characters, and drops the least recently used first. A failed layout is not
 * kept.
 */
const maxEntries = 64
/** SVG and key text kept at most, in characters (~2 bytes each in V8 for non-Latin-1 text). */
const maxChars = 4_000_000

const entries = new Map<string, { readonly svg: Promise<string>; chars: number }>()
let chars = 0

const evict = () => {
  for (const [key, entry] of entries) {
    if (entries.size <= maxEntries && chars <= maxChars) return
    entries.delete(key)
    chars -= entry.chars
  }
}

/** The SVG laid out for `key`: from the cache, or by `layout` (then kept once it succeeds). */
export const cachedSvg = (key: string, layout: () => Promise<string>): Promise<string> => {
  const hit = entries.get(key)
  if (hit !== undefined) {
    // most recently used last: Map keeps insertion order
    entries.delete(key)
    entries.set(key, hit)
    return hit.svg
  }
  const svg = layout()
  const entry = { svg, chars: key.length }
  entries.set(key, entry)
  chars += entry.chars
  evict()
  svg.then(
    (text) => {
      if (entries.get(key) !== entry) return
      entry.chars += text.length
      chars += text.length
      evict()
    },
    () => {
      if (entries.get(key) !== entry) return
      entries.delete(key)
      chars -= entry.chars
    }
  )
  return svg
}

/** Forgets every layout: the render benchmark's figure for pictures seen for the first time. */
export const forgetLayouts = (): void => {
  entries.clear()
  chars = 0
}
