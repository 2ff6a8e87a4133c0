import type * as Resvg from "@resvg/resvg-js"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import satori from "satori"
import { fonts } from "../pdf/Fonts.ts"
import { opaquePng } from "./Png.ts"
import { cachedSvg } from "./SvgCache.ts"

/** A satori element: the React element shape, without React. */
export interface Node {
  readonly type: string
  readonly props: { readonly style?: Record<string, unknown>; readonly children?: unknown }
}

export const h = (style: Record<string, unknown>, ...children: ReadonlyArray<Node | string>): Node => ({
  type: "div",
  props: {
    style: { display: "flex", boxSizing: "border-box", ...style },
    children: children.length === 1 ? children[0] : children
  }
})

/** Pixels per point: sharp on paper at a size that keeps documents small. */
const scale = 2

/**
 * resvg is a native addon, loaded on the first render rather than at start-up: a runtime that
 * cannot load addons (Deno without --allow-ffi, edge runtimes) still serves everything else.
 */
let resvg: Promise<typeof Resvg> | undefined
let fontList: ReturnType<typeof loadFonts> | undefined
let fontFiles: ReadonlyArray<string> | undefined

/**
 * resvg draws the text itself (natively, off the event loop) from the same faces, which it can
 * only read from files: they are written once to a private temporary directory.
 */
const resvgFontFiles = () => {
  if (fontFiles) return fontFiles
  const { data } = fonts()
  const directory = mkdtempSync(join(tmpdir(), "render-fonts-"))
  fontFiles = (["sans", "sansSemiBold", "sansBold"] as const).map((name) => {
    const path = join(directory, `${name}.ttf`)
    writeFileSync(path, data[name])
    return path
  })
  return fontFiles
}

const loadFonts = () => {
  const { data } = fonts()
  return [
    { name: "IBM Plex Sans", data: data.sans, weight: 400 as const, style: "normal" as const },
    { name: "IBM Plex Sans", data: data.sansSemiBold, weight: 600 as const, style: "normal" as const },
    { name: "IBM Plex Sans", data: data.sansBold, weight: 700 as const, style: "normal" as const }
  ]
}

/** One list for the life of the process: satori caches parsed fonts by identity. */
const satoriFonts = () => (fontList ??= loadFonts())

/**
 * Lays the element out with satori as SVG; sizes are in points. The same element and size give
 * the same SVG (the fonts are fixed), so recent layouts are reused by their input. The layout
 * awaits the result only after placing the text, so a failure is marked handled here and surfaces
 * when the picture is placed, not as an unhandled rejection.
 */
export const layoutSvg = (element: Node, width: number, height: number): Promise<string> => {
  const svg = cachedSvg(
    `${width}x${height}:${JSON.stringify(element)}`,
    () => satori(element, { width, height, fonts: satoriFonts(), embedFont: false })
  )
  svg.catch(() => undefined)
  return svg
}

/**
 * The SVG rasterized by resvg as an opaque PNG (for pictures the vector path cannot draw, and
 * for the HTML baseline of the benchmark).
 */
export const rasterize = async (svg: string): Promise<Uint8Array> => {
  // resvg rasterizes on libuv's thread pool, off the event loop
  const { renderAsync } = await (resvg ??= import("@resvg/resvg-js"))
  const image = await renderAsync(svg, {
    fitTo: { mode: "zoom", value: scale },
    background: "#FFFFFF",
    font: { loadSystemFonts: false, fontFiles: [...resvgFontFiles()], defaultFontFamily: "IBM Plex Sans" }
  })
  return await opaquePng(image.pixels, image.width, image.height)
}
