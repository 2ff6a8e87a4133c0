import { Clock, Effect, Either, Option, Schema } from "effect"
import { BundleFormat, BundleManifest } from "../../domain/Bundle.ts"
import type { SectionVersion } from "../../domain/Cfr.ts"
import { ServiceVersion, supportedPartNumbers, supportedParts } from "../../domain/Service.ts"
import { AppConfig } from "../AppConfig.ts"
import { storeDirectory } from "../ecfr/Live.ts"
import { PartFills, type PublishOutcome } from "../ecfr/PartFills.ts"
import { buildSnapshot, type Snapshot } from "../ecfr/Snapshot.ts"
import { fileStore } from "../ecfr/SnapshotStore.ts"
import * as Sync from "../ecfr/Sync.ts"
import { findPartNode, latestVersions, StructureNode, VersionsResponse } from "../ecfr/Wire.ts"
import * as ArchiveRepo from "../enforcement/ArchiveRepo.ts"
import * as ListSource from "../screening/ListSource.ts"
import * as StoredSkills from "../skills/StoredCopy.ts"
import { maxEntries, maxTotalBytes, readArchive, sha256Hex, writeArchive } from "./Archive.ts"
import * as Enforcement from "./Enforcement.ts"
import * as Skills from "./Skills.ts"

/**
 * Data bundles for machines without internet: `exportBundle` fills the store from the upstreams and
 * packs all 12 eCFR parts (in the saved-response layout of `sync --from`), the screening list, the
 * enforcement archive and skills mirrored from GitHub; `readBundle` verifies every checksum and decodes everything, then
 * `storeBundle` loads it: the parts with the issue dates and download times they had, so the
 * importing service serves them dated as the bundle is, and the archive's documents by id.
 */

export class BundleError extends Schema.TaggedError<BundleError>()("BundleError", { message: Schema.String }) {}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const json = (value: unknown) => encoder.encode(JSON.stringify(value))

const partPath = (title: number, part: number, kind: "xml" | "structure.json" | "versions.json") =>
  `ecfr/title-${title}/part-${part}.${kind}`

/** The eCFR versions response a part's latest versions came from (what `sync --from` reads back). */
const versionsResponse = (part: number, versions: ReadonlyArray<SectionVersion>) => ({
  content_versions: versions.map((version) => ({
    identifier: version.identifier,
    name: version.name,
    part: String(part),
    type: version.type,
    amendment_date: version.amendmentDate,
    issue_date: version.issueDate,
    substantive: version.substantive,
    removed: version.removed
  }))
})

/** The current list of the configured source, else the copy it stored earlier. */
const screeningList = Effect.gen(function*() {
  const config = yield* AppConfig
  const source = yield* ListSource.make(config)
  const fetched = yield* Effect.either(source.fetch(undefined))
  if (Either.isRight(fetched) && fetched.right._tag === "Fetched") {
    return { text: fetched.right.text, origin: source.origin }
  }
  const stored = yield* ListSource.makeStore(config.dataDir).read(source.origin)
  if (Option.isSome(stored) && stored.value._tag === "Copy") {
    return { text: stored.value.copy.text, origin: source.origin }
  }
  return yield* new BundleError({
    message: `the screening list could not be read (${
      Either.isLeft(fetched) ? fetched.left.reason : "no copy"
    }) and no copy of it is stored`
  })
})

export const exportBundle = (
  file: string,
  options: { readonly from?: string | undefined; readonly onPart: (result: Sync.SyncResult) => void }
) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const results = yield* Sync.sync({ from: options.from, parts: supportedPartNumbers }, options.onPart)
    const failed = results.filter((result) => result.outcome === "failed")
    if (failed.length > 0) {
      return yield* new BundleError({
        message: `a bundle holds all 12 parts; not stored: ${
          failed.map((result) => `part ${result.part} (${result.detail})`).join(", ")
        }`
      })
    }
    const store = fileStore(storeDirectory(config))
    const entries: Array<readonly [string, Uint8Array]> = []
    const parts: Array<typeof BundleManifest.Type.ecfr.parts[number]> = []
    for (const info of supportedParts) {
      const snapshot = yield* store.load(info)
      if (snapshot === undefined) return yield* new BundleError({ message: `part ${info.part} could not be read back` })
      entries.push(
        [partPath(info.title, info.part, "xml"), encoder.encode(snapshot.xml)],
        [partPath(info.title, info.part, "structure.json"), json(snapshot.structure)],
        [partPath(info.title, info.part, "versions.json"), json(versionsResponse(info.part, snapshot.versions))]
      )
      parts.push({ part: info.part, title: info.title, issue_date: snapshot.issueDate, fetched_at: snapshot.fetchedAt })
    }
    const list = yield* screeningList
    entries.push(["csl/consolidated.json", encoder.encode(list.text)])
    const enforcement = yield* Effect.flatMap(ArchiveRepo.make, Enforcement.exportEnforcement).pipe(
      Effect.mapError((error) =>
        new BundleError({ message: `the enforcement archive cannot be read: ${error.message}` })
      )
    )
    entries.push(...enforcement.entries)
    const skills = yield* Skills.exportSkills.pipe(Effect.mapError((message) => new BundleError({ message })))
    if (skills !== undefined) entries.push(skills.entry)
    // a bundle the import would refuse is not written
    const total = entries.reduce((sum, [, bytes]) => sum + bytes.byteLength, 0)
    if (total > maxTotalBytes || entries.length >= maxEntries) {
      return yield* new BundleError({
        message: `the bundle would hold ${entries.length} files of ${total} bytes; an import reads at most ` +
          `${maxEntries} files and ${maxTotalBytes} bytes`
      })
    }
    const manifest: BundleManifest = {
      format: BundleFormat,
      created_at: new Date().toISOString(),
      service_version: ServiceVersion,
      ecfr: { parts },
      screening_list: { origin: list.origin, path: "csl/consolidated.json" },
      enforcement: enforcement.section,
      ...(skills === undefined ? {} : { skills: skills.section }),
      files: Object.fromEntries(
        entries.map(([path, bytes]) => [path, { sha256: sha256Hex(bytes), bytes: bytes.byteLength }])
      )
    }
    yield* Effect.tryPromise({
      try: () => writeArchive(file, [["manifest.json", json(manifest)], ...entries]),
      catch: (error) => new BundleError({ message: `${file}: cannot be written (${String(error)})` })
    })
    return manifest
  })

/** The archive's entries once every one matches the manifest: nothing missing, altered or extra. */
const verified = (file: string) =>
  Effect.gen(function*() {
    const entries = yield* Effect.tryPromise({
      try: () => readArchive(file),
      catch: (error) => new BundleError({ message: `${file}: not a readable bundle (${String(error)})` })
    })
    const manifestBytes = entries.get("manifest.json")
    if (manifestBytes === undefined) return yield* new BundleError({ message: `${file}: no manifest.json` })
    const manifest = yield* Schema.decodeUnknown(Schema.parseJson(BundleManifest))(decoder.decode(manifestBytes)).pipe(
      Effect.mapError(() => new BundleError({ message: `${file}: manifest.json is not a ${BundleFormat} manifest` }))
    )
    const problems: Array<string> = []
    for (const [path, expected] of Object.entries(manifest.files)) {
      const bytes = entries.get(path)
      if (bytes === undefined) problems.push(`${path} is missing`)
      else if (sha256Hex(bytes) !== expected.sha256) problems.push(`${path} does not match its SHA-256`)
    }
    const required = [
      ...manifest.ecfr.parts.flatMap(({ part, title }) =>
        (["xml", "structure.json", "versions.json"] as const).map((kind) => partPath(title, part, kind))
      ),
      ...(manifest.screening_list === null ? [] : [manifest.screening_list.path]),
      ...(manifest.enforcement?.paths ?? []),
      ...(manifest.skills === undefined ? [] : [manifest.skills.path])
    ]
    for (const path of required) {
      if (!Object.hasOwn(manifest.files, path)) problems.push(`${path} is not in the manifest`)
    }
    for (const path of entries.keys()) {
      if (path !== "manifest.json" && !Object.hasOwn(manifest.files, path)) {
        problems.push(`${path} is not in the manifest`)
      }
    }
    if (problems.length > 0) {
      return yield* new BundleError({ message: `${file} is damaged; nothing was imported: ${problems.join("; ")}` })
    }
    return { manifest, read: (path: string) => entries.get(path)! }
  })

const decodeJson = <A, I>(schema: Schema.Schema<A, I>, bytes: Uint8Array, what: string) =>
  Schema.decodeUnknown(Schema.parseJson(schema))(decoder.decode(bytes)).pipe(
    Effect.mapError(() => new BundleError({ message: `${what} has an unexpected shape` }))
  )

/** A bundle read, verified and decoded completely: nothing has been written yet. */
export const readBundle = (file: string) =>
  Effect.gen(function*() {
    const { manifest, read } = yield* verified(file)
    const snapshots = yield* Effect.forEach(manifest.ecfr.parts, (entry) =>
      Effect.gen(function*() {
        const info = supportedParts.find((candidate) => candidate.part === entry.part)
        if (info === undefined) return yield* new BundleError({ message: `part ${entry.part} is not supported` })
        const root = yield* decodeJson(
          StructureNode,
          read(partPath(info.title, info.part, "structure.json")),
          `part ${info.part} structure`
        )
        const structure = findPartNode(root, info.part)
        if (structure === undefined) return yield* new BundleError({ message: `part ${info.part}: no structure` })
        const versions = yield* decodeJson(
          VersionsResponse,
          read(partPath(info.title, info.part, "versions.json")),
          `part ${info.part} versions`
        )
        return yield* buildSnapshot({
          info,
          issueDate: entry.issue_date,
          fetchedAt: entry.fetched_at,
          structure,
          xml: decoder.decode(read(partPath(info.title, info.part, "xml"))),
          versions: latestVersions(versions, info.part)
        }).pipe(Effect.mapError((error) => new BundleError({ message: `part ${info.part}: ${error.message}` })))
      }))
    const enforcement = manifest.enforcement === undefined
      ? undefined
      : yield* Enforcement.readEnforcement(manifest.enforcement, Object.keys(manifest.files), read).pipe(
        Effect.mapError((problem) => new BundleError({ message: `${file}: ${problem}; nothing was imported` }))
      )
    const skills = manifest.skills === undefined
      ? undefined
      : yield* Skills.readSkills(manifest.skills, read(manifest.skills.path)).pipe(
        Effect.mapError((problem) => new BundleError({ message: `${file}: ${problem}; nothing was imported` }))
      )
    return { manifest, snapshots, enforcement, skills, read }
  })

export type ReadBundle = Effect.Effect.Success<ReturnType<typeof readBundle>>

/**
 * When a bundle's part was last confirmed current (epoch ms): when the bundle was made, since an
 * export downloads or re-checks every part just before (never before the part's download, nor
 * after `now`). Not the import's time: a service re-checks eCFR once that is an hour past, and
 * marks the part stale when it cannot; on PostgreSQL the other instances take it on these terms.
 */
const bundleVerifiedAt = (manifest: BundleManifest, snapshot: Snapshot, now: number) => {
  const fetchedAt = Date.parse(snapshot.fetchedAt) || 0
  const made = Date.parse(manifest.created_at) || fetchedAt
  return Math.max(fetchedAt, Math.min(made, now))
}

/**
 * Stores a read bundle: the enforcement archive (one transaction), then the parts (published to the
 * shared eCFR mirror on PostgreSQL, unless it holds later downloads), then the list.
 */
export const storeBundle = (bundle: ReadBundle, onPart: (part: number, done: number, total: number) => void) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const { enforcement, manifest, read, skills, snapshots } = bundle
    if (enforcement !== undefined) {
      yield* Effect.flatMap(ArchiveRepo.make, (repo) => Enforcement.storeEnforcement(repo, enforcement)).pipe(
        Effect.mapError((error) =>
          new BundleError({ message: `the enforcement archive cannot be stored: ${error.message}` })
        )
      )
    }
    const store = fileStore(storeDirectory(config))
    const fills = yield* PartFills
    const now = yield* Clock.currentTimeMillis
    const shared: Array<PublishOutcome> = []
    for (const [index, snapshot] of snapshots.entries()) {
      const verifiedAt = bundleVerifiedAt(manifest, snapshot, now)
      yield* store.save(snapshot, new Date(verifiedAt).toISOString()).pipe(
        Effect.mapError((error) =>
          new BundleError({ message: `part ${snapshot.part} cannot be stored: ${error.message}` })
        )
      )
      // on PostgreSQL the other instances take it from the shared mirror when they cannot reach eCFR
      shared.push(
        yield* fills.publish(snapshot, verifiedAt).pipe(
          Effect.mapError((error) =>
            new BundleError({
              message: `part ${snapshot.part} was stored in ${storeDirectory(config)} but cannot be shared with ` +
                `the instances on PostgreSQL: ${error.message}`
            })
          )
        )
      )
      onPart(snapshot.part, index + 1, snapshots.length)
    }
    if (manifest.screening_list !== null) {
      yield* ListSource.makeStore(config.dataDir).write({
        text: decoder.decode(read(manifest.screening_list.path)),
        etag: undefined,
        origin: manifest.screening_list.origin
      }).pipe(Effect.mapError((error) => new BundleError({ message: error.reason })))
    }
    if (skills !== undefined) {
      yield* StoredSkills.write(config.dataDir, skills).pipe(
        Effect.mapError((error) => new BundleError({ message: error.message }))
      )
    }
    return { manifest, shared }
  })
