import { createTarDecoder, createTarPacker } from "modern-tar"
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { rename } from "node:fs/promises"
import { Readable, Writable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"
import { createGunzip, createGzip } from "node:zlib"

/**
 * Bundle archives are gzip-compressed tar files (readable with `tar -xzf`). `modern-tar` reads and
 * writes them: it has no dependencies, where tar-stream pulls the Bare runtime's file system
 * packages (about 7 MB) into every install.
 */

/** Caps that bound what an import reads into memory, whatever the archive claims. */
export const maxEntryBytes = 256 * 1024 * 1024
export const maxTotalBytes = 1024 * 1024 * 1024
export const maxEntries = 10_000

export interface ArchiveLimits {
  readonly entryBytes: number
  readonly totalBytes: number
  readonly entries: number
}

const limits: ArchiveLimits = { entryBytes: maxEntryBytes, totalBytes: maxTotalBytes, entries: maxEntries }

export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** Writes the entries, in order, as a gzip-compressed tar file (a temporary file, then a rename). */
export const writeArchive = async (path: string, entries: ReadonlyArray<readonly [string, Uint8Array]>) => {
  const { controller, readable } = createTarPacker()
  const temporary = `${path}.${process.pid}.tmp`
  const written = pipeline(
    // the DOM typings of a web stream lack the async iteration that Node's declare
    Readable.fromWeb(readable as NodeReadableStream<Uint8Array>),
    createGzip(),
    createWriteStream(temporary, { mode: 0o644 })
  )
  // a failed write ends the packing: the entries below then stop at their next write
  written.catch((error) => controller.error(error))
  for (const [name, bytes] of entries) {
    const body = controller.add({ name, size: bytes.byteLength, mode: 0o644, type: "file" }).getWriter()
    await body.write(bytes)
    await body.close()
  }
  controller.finalize()
  await written
  await rename(temporary, path)
}

/** Reads every regular file of a gzip-compressed tar file into memory, within the caps. */
export const readArchive = async (
  path: string,
  caps: ArchiveLimits = limits
): Promise<ReadonlyMap<string, Uint8Array>> => {
  const entries = new Map<string, Uint8Array>()
  const decoder = createTarDecoder({ strict: true })
  const fed = pipeline(
    createReadStream(path),
    createGunzip(),
    Writable.fromWeb(decoder.writable)
  )
  const reader = decoder.readable.getReader()
  const read = async () => {
    let total = 0
    for (;;) {
      const next = await reader.read()
      if (next.done) return
      const { body, header } = next.value
      const chunks: Array<Uint8Array> = []
      let size = 0
      const bodyReader = body.getReader()
      for (;;) {
        const chunk = await bodyReader.read()
        if (chunk.done) break
        size += chunk.value.byteLength
        total += chunk.value.byteLength
        if (size > caps.entryBytes || total > caps.totalBytes) {
          throw new Error(`the archive exceeds ${size > caps.entryBytes ? caps.entryBytes : caps.totalBytes} bytes`)
        }
        chunks.push(chunk.value)
      }
      if ((header.type ?? "file") === "file") entries.set(header.name, new Uint8Array(Buffer.concat(chunks)))
      if (entries.size > caps.entries) throw new Error(`the archive holds more than ${caps.entries} files`)
    }
  }
  // the reading side stops the feeding side on a cap, and a broken file stops the reading side
  const outcome = await Promise.allSettled([
    read().catch(async (error) => {
      await reader.cancel(error).catch(() => undefined)
      throw error
    }),
    fed
  ])
  const failure = outcome.find((result) => result.status === "rejected")
  if (failure) throw failure.reason
  return entries
}
