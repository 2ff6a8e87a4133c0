import { promisify } from "node:util"
import { deflate } from "node:zlib"

const deflateAsync = promisify(deflate)

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const chunk = (type: string, data: Uint8Array) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/**
 * Opaque RGBA pixels (rendered on a white background) written as an RGB PNG. pdfkit embeds such a
 * PNG's compressed data as is, whereas a PNG with an alpha channel is decoded pixel by pixel in
 * JavaScript to split off a soft mask — the slowest step of a render otherwise.
 */
export const opaquePng = async (rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> => {
  const stride = width * 3 + 1
  const raw = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    let target = y * stride + 1
    let source = y * width * 4
    for (let x = 0; x < width; x++) {
      raw[target] = rgba[source]!
      raw[target + 1] = rgba[source + 1]!
      raw[target + 2] = rgba[source + 2]!
      target += 3
      source += 4
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await deflateAsync(raw, { level: 1 })),
    chunk("IEND", new Uint8Array(0))
  ])
}
