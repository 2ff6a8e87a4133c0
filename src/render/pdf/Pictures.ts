import type { Picture } from "../graphics/Graphics.ts"
import { rasterize } from "../graphics/Raster.ts"
import { drawSvg, parseSvg } from "./Svg.ts"
import type { Tags } from "./Tags.ts"
import type { Writer } from "./Writer.ts"

/**
 * The pictures of a document: each is reserved in the flow (and in the structure tree, as a
 * `Figure` with its description as alternate text) while the pages are laid out, and drawn once
 * satori has laid it out: as vector graphics and text, or, for SVG the vector path does not
 * draw, as a raster with its description as invisible text.
 */
export class Pictures {
  private readonly reserved: Array<
    { picture: Picture; page: number; x: number; y: number; figure: ReturnType<Tags["reserve"]> }
  > = []

  constructor(private readonly w: Writer) {}

  reserve(picture: Picture, x: number, y: number): void {
    const figure = this.w.tags.reserve("Figure", {
      alt: picture.alt,
      bbox: [x, y, x + picture.width, y + picture.height]
    })
    this.reserved.push({ picture, page: this.w.pageIndex, x, y, figure })
  }

  async place(): Promise<void> {
    const doc = this.w.doc
    const svgs = await Promise.all(this.reserved.map(({ picture }) => picture.svg))
    const parsed = svgs.map(parseSvg)
    // rasterized in parallel (off the event loop) only where the vector path cannot draw
    const pngs = await Promise.all(svgs.map((svg, i) => parsed[i] === undefined ? rasterize(svg) : undefined))
    this.reserved.forEach(({ figure, page, picture, x, y }, index) => {
      doc.switchToPage(page)
      const vector = parsed[index]
      figure.fill(() => {
        const png = pngs[index]
        if (vector !== undefined) drawSvg(this.w, vector, x, y)
        else if (png !== undefined) {
          doc.image(Buffer.from(png.buffer, png.byteOffset, png.byteLength), x, y, {
            width: picture.width,
            height: picture.height
          })
          this.hiddenText(picture.alt, x, y, picture.width, picture.height)
        }
      })
      figure.end()
    })
  }

  /**
   * What a picture shows as invisible text over it (text render mode 3, as in scanned pages with
   * a text layer): the cover card's ECCN and status can be found and copied, not only seen.
   */
  private hiddenText(text: string, x: number, y: number, width: number, height: number): void {
    const doc = this.w.doc
    doc.save()
    doc.addContent("3 Tr")
    // small type, and lines past the picture's height are dropped: nothing is seen, nothing may spill
    this.w.font("sans", 4).write(text, "sans", x + 6, y + 6, { width: width - 12, height: height - 12 })
    doc.restore()
  }
}
