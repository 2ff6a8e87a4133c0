/** The part of fontkit (a pdfkit dependency, untyped) that the renderer uses. */
declare module "fontkit" {
  export interface PathCommand {
    readonly command: "moveTo" | "lineTo" | "quadraticCurveTo" | "bezierCurveTo" | "closePath"
    readonly args: ReadonlyArray<number>
  }
  export interface Subset {
    glyphEncoder: {
      encodeSimple(
        path: { readonly commands: ReadonlyArray<PathCommand> },
        instructions?: ReadonlyArray<number>
      ): Uint8Array
    }
  }
  export interface Font {
    readonly variationAxes: Readonly<
      Record<string, { readonly min: number; readonly default: number; readonly max: number }>
    >
    hasGlyphForCodePoint(codePoint: number): boolean
    layout(text: string, features?: unknown): unknown
    getVariation(settings: Readonly<Record<string, number>>): Font
    createSubset(): Subset
  }
  export function create(buffer: Uint8Array): Font
}
