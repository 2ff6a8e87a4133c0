import type { FontName } from "./Fonts.ts"
import type { Writer } from "./Writer.ts"

/** Text fitted to a box: what to draw and at which size. */
export interface Fitted {
  readonly text: string
  readonly size: number
}

export interface FitBox {
  readonly size: number
  readonly minSize: number
  readonly width: number
  readonly height: number
}

/** The longest prefix of `chars` that, cut with an ellipsis, still `fits`. */
const cut = (chars: ReadonlyArray<string>, fits: (text: string) => boolean): string => {
  let low = 0
  let high = chars.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (fits(`${chars.slice(0, mid).join("").trimEnd()}…`)) low = mid
    else high = mid - 1
  }
  return `${chars.slice(0, low).join("").trimEnd()}…`
}

/** One line at `size`, else shrunk down to `minSize`, else cut with an ellipsis. */
export const fitLine = (
  w: Writer,
  text: string,
  name: FontName,
  size: number,
  width: number,
  minSize = size
): Fitted => {
  w.doc.font(name).fontSize(size)
  const natural = w.widthOf(text, name)
  if (natural <= width) return { text, size }
  const shrunk = Math.max(minSize, Math.floor(size * (width / natural) * 10) / 10)
  w.doc.fontSize(shrunk)
  if (w.widthOf(text, name) <= width) return { text, size: shrunk }
  return { text: cut([...text], (value) => w.widthOf(value, name) <= width), size: shrunk }
}

/** Wrapped at the box's width within its height, at the largest size that fits, else cut. */
export const fitBlock = (w: Writer, text: string, name: FontName, box: FitBox): Fitted => {
  const fits = (value: string, size: number) => {
    w.doc.font(name).fontSize(size)
    return w.heightOf(value, name, { width: box.width }) <= box.height
  }
  for (let size = box.size; size > box.minSize; size = Math.max(box.minSize, size - 1)) {
    if (fits(text, size)) return { text, size }
  }
  if (fits(text, box.minSize)) return { text, size: box.minSize }
  const fitted = cut([...text], (value) => fits(value, box.minSize))
  w.doc.fontSize(box.minSize)
  return { text: fitted, size: box.minSize }
}
