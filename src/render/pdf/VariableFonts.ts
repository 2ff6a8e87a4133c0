import type * as fontkit from "fontkit"

/**
 * A TrueType simple glyph written from its (already varied) outline. fontkit re-encodes the
 * outlines of a variation instance when it subsets one, but its encoder allocates its output
 * with an API the restructure 3 it depends on no longer has, so every instance fails to embed;
 * this encoder takes its place. Flags and coordinates are written long-form: a subset carries a
 * few dozen glyphs, so the bytes saved by short forms are not worth the code.
 */
export const encodeSimpleGlyph = (
  path: { readonly commands: ReadonlyArray<fontkit.PathCommand> },
  instructions: ReadonlyArray<number> = []
): Uint8Array => {
  const contours: Array<Array<readonly [number, number, boolean]>> = []
  let contour: Array<readonly [number, number, boolean]> = []
  const close = () => {
    // the closing point repeats the start when the outline ends on it
    const first = contour[0]
    const last = contour[contour.length - 1]
    if (contour.length > 1 && first && last && last[2] && first[0] === last[0] && first[1] === last[1]) contour.pop()
    if (contour.length > 0) contours.push(contour)
    contour = []
  }
  const point = (x: number, y: number, onCurve: boolean) => contour.push([Math.round(x), Math.round(y), onCurve])
  for (const { args, command } of path.commands) {
    if (command === "moveTo") {
      close()
      point(args[0]!, args[1]!, true)
    } else if (command === "lineTo") point(args[0]!, args[1]!, true)
    else if (command === "quadraticCurveTo") {
      point(args[0]!, args[1]!, false)
      point(args[2]!, args[3]!, true)
    } else if (command === "bezierCurveTo") {
      // TrueType outlines are quadratic; a cubic segment only appears in CFF faces, which are not varied here
      point(args[4]!, args[5]!, true)
    } else close()
  }
  close()
  const points = contours.flat()
  if (points.length === 0) return new Uint8Array(0)
  const size = 12 + 2 * contours.length + instructions.length + 5 * points.length
  const out = Buffer.alloc(size + ((4 - (size % 4)) % 4))
  let at = out.writeInt16BE(contours.length, 0)
  const xs = points.map((p) => p[0])
  const ys = points.map((p) => p[1])
  for (const bound of [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]) {
    at = out.writeInt16BE(bound, at)
  }
  let end = -1
  for (const c of contours) at = out.writeUInt16BE(end += c.length, at)
  at = out.writeUInt16BE(instructions.length, at)
  for (const byte of instructions) at = out.writeUInt8(byte, at)
  for (const p of points) at = out.writeUInt8(p[2] ? 1 : 0, at)
  for (const axis of [0, 1] as const) {
    let previous = 0
    for (const p of points) {
      at = out.writeInt16BE(p[axis] - previous, at)
      previous = p[axis]
    }
  }
  return out
}

/**
 * The face at `weight` on its `wght` axis (the face itself when it has none or already sits
 * there), ready to be subset and embedded by pdfkit.
 */
export const atWeight = (font: fontkit.Font, weight: number): fontkit.Font => {
  const axis = font.variationAxes["wght"]
  if (axis === undefined || axis.default === weight) return font
  const instance = font.getVariation({ wght: Math.min(axis.max, Math.max(axis.min, weight)) })
  const createSubset = instance.createSubset.bind(instance)
  instance.createSubset = () => {
    const subset = createSubset()
    subset.glyphEncoder = { encodeSimple: encodeSimpleGlyph }
    return subset
  }
  return instance
}
