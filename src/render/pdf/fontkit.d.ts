/** The part of fontkit (a pdfkit dependency, untyped) that the renderer uses. */
declare module "fontkit" {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean
    layout(text: string, features?: unknown): unknown
  }
  export function create(buffer: Uint8Array): Font
}
