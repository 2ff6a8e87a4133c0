import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import process from "node:process"
import { type SupportedPartInfo, supportedParts } from "../../domain/Service.ts"
import { fromStored, type Snapshot, type StoredSnapshot, toStored } from "./Snapshot.ts"

/** What is known about a stored snapshot without loading it. */
export interface StoredMeta {
  readonly part: number
  readonly issueDate: string
  readonly fetchedAt: string
  /** Last time the upstream confirmed this snapshot is current (ISO). */
  readonly verifiedAt: string
  readonly contentHash: string
}

/** Where snapshots outlive the process: files under DATA_DIR, or memory (tests, fixtures). */
export interface SnapshotStore {
  /** Metadata of every stored part, read once at start-up. */
  readonly index: Effect.Effect<ReadonlyMap<number, StoredMeta>>
  /** The stored snapshot, or undefined when it is missing or unreadable. */
  readonly load: (info: SupportedPartInfo) => Effect.Effect<Snapshot | undefined>
  readonly save: (snapshot: Snapshot, verifiedAt: string) => Effect.Effect<StoredMeta, Error>
  readonly touch: (meta: StoredMeta) => Effect.Effect<void, Error>
  /** A secret that outlives restarts, for signing pagination cursors. */
  readonly secret: Effect.Effect<Uint8Array, Error>
}

export const metaOf = (snapshot: Snapshot, verifiedAt: string): StoredMeta => ({
  part: snapshot.part,
  issueDate: snapshot.issueDate,
  fetchedAt: snapshot.fetchedAt,
  verifiedAt,
  contentHash: snapshot.contentHash
})

const asError = (cause: unknown) => cause instanceof Error ? cause : new Error(String(cause))

/** Writes a file in one step: a temporary sibling, then a rename. */
const writeAtomically = async (path: string, data: string | Uint8Array) => {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
  await writeFile(temporary, data, { mode: 0o600 })
  await rename(temporary, path)
}

/**
 * Files under `<dir>`: `part-<N>/part.xml`, `part-<N>/snapshot.json` (the parsed snapshot with the
 * XML digest, so a torn pair is detected), `part-<N>/meta.json`, and `cursor.key`.
 */
export const fileStore = (dir: string): SnapshotStore => {
  const partDir = (part: number) => join(dir, `part-${part}`)
  const readJson = async <A>(path: string): Promise<A | undefined> => {
    try {
      return JSON.parse(await readFile(path, "utf8")) as A
    } catch {
      return undefined
    }
  }
  const writeMeta = (meta: StoredMeta) => writeAtomically(join(partDir(meta.part), "meta.json"), JSON.stringify(meta))
  return {
    index: Effect.promise(async () => {
      const entries = await Promise.all(supportedParts.map(async (info) => {
        const meta = await readJson<StoredMeta>(join(partDir(info.part), "meta.json"))
        return meta?.part === info.part ? [[info.part, meta] as const] : []
      }))
      return new Map(entries.flat())
    }),
    load: (info) =>
      Effect.tryPromise(async () => {
        const stored = await readJson<StoredSnapshot>(join(partDir(info.part), "snapshot.json"))
        if (stored === undefined) return undefined
        return { stored, xml: await readFile(join(partDir(info.part), "part.xml"), "utf8") }
      }).pipe(
        Effect.flatMap((files) =>
          files === undefined ? Effect.succeed(undefined) : fromStored(files.stored, files.xml, info)
        ),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning("stored eCFR snapshot unreadable", { part: info.part, error: String(error) }),
            undefined
          )
        )
      ),
    save: (snapshot, verifiedAt) =>
      Effect.tryPromise({
        try: async () => {
          await mkdir(partDir(snapshot.part), { recursive: true })
          await writeAtomically(join(partDir(snapshot.part), "part.xml"), snapshot.xml)
          await writeAtomically(join(partDir(snapshot.part), "snapshot.json"), JSON.stringify(toStored(snapshot)))
          const meta = metaOf(snapshot, verifiedAt)
          await writeMeta(meta)
          return meta
        },
        catch: asError
      }),
    touch: (meta) => Effect.tryPromise({ try: () => writeMeta(meta), catch: asError }),
    secret: Effect.tryPromise({
      try: async () => {
        const path = join(dir, "cursor.key")
        await mkdir(dir, { recursive: true })
        // exclusive create: when processes sharing DATA_DIR start together, the first key wins for all
        await writeFile(path, randomBytes(32), { flag: "wx", mode: 0o600 }).catch((error) => {
          if (error?.code !== "EEXIST") throw error
        })
        const key = await readFile(path)
        if (key.byteLength < 32) throw new Error(`${path} is shorter than 32 bytes`)
        return new Uint8Array(key)
      },
      catch: asError
    })
  }
}

/** A store that lives as long as the process. */
export const memoryStore = (): SnapshotStore => {
  const snapshots = new Map<number, { snapshot: Snapshot; meta: StoredMeta }>()
  const secret = new Uint8Array(randomBytes(32))
  return {
    index: Effect.sync(() => new Map([...snapshots].map(([part, entry]) => [part, entry.meta]))),
    load: (info) => Effect.sync(() => snapshots.get(info.part)?.snapshot),
    save: (snapshot, verifiedAt) =>
      Effect.sync(() => {
        const meta = metaOf(snapshot, verifiedAt)
        snapshots.set(snapshot.part, { snapshot, meta })
        return meta
      }),
    touch: (meta) =>
      Effect.sync(() => {
        const entry = snapshots.get(meta.part)
        if (entry !== undefined) snapshots.set(meta.part, { ...entry, meta })
      }),
    secret: Effect.succeed(secret)
  }
}
