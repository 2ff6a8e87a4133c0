import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { rename } from "node:fs/promises"
import { pipeline } from "node:stream/promises"
import { createGunzip, createGzip } from "node:zlib"
import { extract, pack } from "tar-stream"

/** Caps that bound what an import reads into memory, whatever the archive claims. */
export const maxEntryBytes = 256 * 1024 * 1024
export const maxTotalBytes = 1024 * 1024 * 1024
export const maxEntries = 10_000

export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** Writes the entries, in order, as a gzip-compressed tar file (a temporary file, then a rename). */
export const writeArchive = async (path: string, entries: ReadonlyArray<readonly [string, Uint8Array]>) => {
  const archive = pack()
  const temporary = `${path}.${process.pid}.tmp`
  const written = pipeline(archive, createGzip(), createWriteStream(temporary, { mode: 0o644 }))
  for (const [name, bytes] of entries) {
    await new Promise<void>((resolve, reject) =>
      archive.entry(
        { name, size: bytes.byteLength, mode: 0o644 },
        Buffer.from(bytes),
        (error) => error ? reject(error) : resolve()
      )
    )
  }
  archive.finalize()
  await written
  await rename(temporary, path)
}

/** Reads every regular file of a gzip-compressed tar file into memory, within the caps. */
export const readArchive = async (path: string): Promise<ReadonlyMap<string, Uint8Array>> => {
  const entries = new Map<string, Uint8Array>()
  let total = 0
  const reader = extract()
  reader.on("entry", (header, stream, next) => {
    const chunks: Array<Buffer> = []
    let size = 0
    stream.on("data", (data: unknown) => {
      const chunk = data as Buffer
      size += chunk.byteLength
      total += chunk.byteLength
      if (size > maxEntryBytes || total > maxTotalBytes) {
        stream.destroy(new Error(`the archive exceeds ${size > maxEntryBytes ? maxEntryBytes : maxTotalBytes} bytes`))
      } else chunks.push(chunk)
    })
    stream.on("end", () => {
      if (header.type === "file") entries.set(header.name, new Uint8Array(Buffer.concat(chunks)))
      if (entries.size > maxEntries) reader.destroy(new Error(`the archive holds more than ${maxEntries} files`))
      else next()
    })
    stream.on("error", (error) => reader.destroy(error))
  })
  await pipeline(createReadStream(path), createGunzip(), reader)
  return entries
}
