import type { HttpClient } from "@effect/platform"
import { Clock, Duration, Effect, Layer, Option, Redacted, Ref, Schema } from "effect"
import { createHash } from "node:crypto"
import type { MirroredSkills } from "../../domain/Bundle.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { AppConfig } from "../AppConfig.ts"
import { DataGeneration } from "../DataGeneration.ts"
import { fromCollection, SkillsMirror } from "../SkillsMirror.ts"
import * as Upstream from "../Upstream.ts"
import {
  assemble,
  classifyPath,
  decodeText,
  limits,
  logProblems,
  type SkillCollection,
  type SourceProblem
} from "./Collection.ts"
import { formatSkillsSource, type SkillsSource } from "./Source.ts"
import * as StoredCopy from "./StoredCopy.ts"

type GitHubSource = Extract<SkillsSource, { readonly _tag: "GitHub" }>

export interface GitHubMirrorOptions {
  /** How long a copy is served before GitHub is asked (conditionally) whether the ref moved. */
  readonly refreshAfter?: Duration.DurationInput
  /** How long to wait after a failed refresh before asking again; the last good copy is served meanwhile. */
  readonly retryAfter?: Duration.DurationInput
}

const TreeEntry = Schema.Struct({
  path: Schema.String,
  type: Schema.String,
  sha: Schema.String,
  size: Schema.optional(Schema.Number)
})
const Tree = Schema.Struct({ sha: Schema.String, truncated: Schema.Boolean, tree: Schema.Array(TreeEntry) })

const objectId = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** Git's object id of a blob: the raw download is checked against the id the tree announced. */
export const blobId = (bytes: Uint8Array, length: number) =>
  createHash(length === 64 ? "sha256" : "sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex")

interface MirroredFile {
  /** Relative to the skills folder. */
  readonly path: string
  readonly blob: string
  readonly text: string
}

interface Copy {
  readonly collection: SkillCollection
  readonly commit: string
  readonly etag: string | undefined
  /** Texts by git blob id, reused by the next refresh for files that did not change. */
  readonly blobs: ReadonlyMap<string, string>
  /** What a data bundle carries of this copy. */
  readonly files: ReadonlyArray<MirroredFile>
}

interface State {
  readonly copy: Copy | undefined
  readonly nextCheckAt: number
  readonly refreshing: boolean
}

const webOf = (config: { readonly githubApiBaseUrl: string }, source: GitHubSource) =>
  `${webRoot(config.githubApiBaseUrl)}/${source.owner}/${source.repo}`

const segments = (path: string) => path.split("/").map(encodeURIComponent).join("/")

/** The web address of the repository, from the API root (`api.github.com`, or GitHub Enterprise's `/api/v3`). */
const webRoot = (apiBaseUrl: string) =>
  apiBaseUrl === "https://api.github.com" ? "https://github.com" : apiBaseUrl.replace(/\/api\/v3$/, "")

/** A copy from the files read at a commit (from GitHub, or from a bundle's stored copy). */
const copyOf = (
  source: GitHubSource,
  web: string,
  read: { readonly commit: string; readonly etag: string | undefined; readonly files: ReadonlyArray<MirroredFile> },
  problems: ReadonlyArray<SourceProblem>
) =>
  Effect.gen(function*() {
    const assembled = assemble({
      entries: read.files,
      upstream: `${web}/tree/${source.ref}/${source.path}`,
      skillUpstream: (name) => `${web}/tree/${source.ref}/${source.path}/${name}`
    })
    yield* logProblems([...problems, ...assembled.problems])
    return {
      collection: assembled.collection,
      commit: read.commit,
      etag: read.etag,
      blobs: new Map(read.files.map((file) => [file.blob, file.text])),
      files: read.files
    } satisfies Copy
  })

/**
 * Reads one snapshot of the skills folder at a commit: the ref is resolved with a conditional
 * request (its ETag), the tree is listed once per commit, and only blobs not already held are
 * downloaded from the raw-content host, each verified against its git object id.
 */
const makeFetcher = Effect.fn("makeFetcher")(function*(source: GitHubSource) {
  const config = yield* AppConfig
  const api = yield* Upstream.make({ name: "github", baseUrl: config.githubApiBaseUrl, timeout: "15 seconds" })
  const raw = yield* Upstream.make({ name: "github-raw", baseUrl: config.githubRawBaseUrl, timeout: "15 seconds" })
  const auth: Record<string, string> = Option.match(config.skillsGithubToken, {
    onNone: () => ({}),
    onSome: (token) => ({ authorization: `Bearer ${Redacted.value(token)}` })
  })
  const apiHeaders = { ...auth, "x-github-api-version": "2022-11-28" }
  const repoPath = `/repos/${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}`
  const web = webOf(config, source)
  const folder = `${source.path}/`
  const invalid = (detail: string) => new Upstream.UpstreamError({ upstream: "github", reason: "decode", detail })

  const resolveRef = (previous: Copy | undefined) =>
    Effect.flatMap(
      api.get(`${repoPath}/commits/${segments(source.ref)}`, {
        headers: {
          ...apiHeaders,
          accept: "application/vnd.github.sha",
          ...(previous?.etag === undefined ? {} : { "if-none-match": previous.etag })
        },
        acceptStatus: [304]
      }),
      (response) => {
        if (response.status === 304 && previous !== undefined) {
          return Effect.succeed({ commit: previous.commit, etag: previous.etag })
        }
        const commit = response.text().trim()
        return objectId.test(commit)
          ? Effect.succeed({ commit, etag: response.headers["etag"] })
          : Effect.fail(invalid("the commit of the ref is not an object id"))
      }
    )

  const rawRepo = `/${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}`
  const download = (commit: string, path: string) =>
    Effect.map(raw.get(`${rawRepo}/${commit}/${segments(folder + path)}`, { headers: auth }), (r) => r.body)

  const snapshot = (commit: string, etag: string | undefined, previous: Copy | undefined) =>
    Effect.gen(function*() {
      const tree = yield* api.getJson(`${repoPath}/git/trees/${commit}`, Tree, {
        params: { recursive: "1" },
        headers: { ...apiHeaders, accept: "application/vnd.github+json" }
      })
      if (tree.truncated) return yield* invalid("the repository tree is too large to list in one response")
      const problems: Array<SourceProblem> = []
      const wanted: Array<{ readonly path: string; readonly id: string }> = []
      let total = 0
      for (const entry of tree.tree) {
        if (!entry.path.startsWith(folder) || entry.type === "tree") continue
        const path = entry.path.slice(folder.length)
        const where = classifyPath(path)
        if (where._tag === "Unexpected" || entry.type !== "blob" || !objectId.test(entry.sha)) {
          problems.push({ path, message: where._tag === "Unexpected" ? where.reason : "not a file" })
        } else if ((entry.size ?? 0) > limits.maxFileBytes) {
          problems.push({ path, message: "larger than 512 KiB: not served" })
        } else {
          wanted.push({ path, id: entry.sha })
          total += entry.size ?? 0
        }
      }
      if (wanted.length === 0) return yield* invalid(`the repository has no skill files under ${folder}`)
      if (wanted.length > limits.maxFiles || total > limits.maxTotalBytes) {
        return yield* invalid("the skills folder exceeds the size limits")
      }
      const texts = yield* Effect.forEach(wanted, ({ id, path }) => {
        const held = previous?.blobs.get(id)
        if (held !== undefined) return Effect.succeed({ path, id, text: held as string | undefined })
        return Effect.flatMap(download(commit, path), (bytes) =>
          blobId(bytes, id.length) === id
            ? Effect.succeed({ path, id, text: decodeText(bytes) })
            : Effect.fail(invalid(`${path} did not match its git object id`)))
      }, { concurrency: 8 })
      const files: Array<MirroredFile> = []
      for (const { id, path, text } of texts) {
        if (text === undefined) problems.push({ path, message: "not UTF-8 text: not served" })
        else files.push({ path, blob: id, text })
      }
      return yield* copyOf(source, web, { commit, etag, files }, problems)
    })

  return (previous: Copy | undefined): Effect.Effect<Copy, Upstream.UpstreamError> =>
    Effect.flatMap(resolveRef(previous), ({ commit, etag }) =>
      previous !== undefined && previous.commit === commit
        ? Effect.succeed({ ...previous, etag })
        : snapshot(commit, etag, previous))
})

/** The skills folder as GitHub has it now, as a data bundle carries it (`ecds sync --export`). */
export const mirrorOnce = (source: GitHubSource) =>
  Effect.gen(function*() {
    const fetchCopy = yield* makeFetcher(source)
    const copy = yield* fetchCopy(undefined)
    const fetchedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    return {
      source: formatSkillsSource(source),
      commit: copy.commit,
      fetched_at: fetchedAt,
      files: copy.files.map(({ blob, path, text }) => ({ path, blob, text }))
    } satisfies MirroredSkills
  })

/** The copy a bundle import stored for this source, if any: served until GitHub answers. */
const storedCopy = (source: GitHubSource) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const stored = yield* StoredCopy.read(config.dataDir, formatSkillsSource(source))
    if (Option.isNone(stored)) return undefined
    const { commit, files } = stored.value
    return yield* copyOf(source, webOf(config, source), { commit, etag: undefined, files }, [])
  })

/**
 * Skills from a GitHub repository (`SKILLS_SOURCE=github:owner/repo@ref`). The first copy is
 * fetched at start-up; a copy is served for `refreshAfter` (6 hours), then the next request starts
 * a background revalidation and is answered from the copy in hand. When GitHub fails, the last
 * good copy keeps being served; with no copy at all, requests answer 503.
 */
export const layer = (
  source: GitHubSource,
  options: GitHubMirrorOptions = {}
): Layer.Layer<SkillsMirror, never, AppConfig | DataGeneration | HttpClient.HttpClient> =>
  Layer.scoped(
    SkillsMirror,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const generation = yield* DataGeneration
      const fetchCopy = yield* makeFetcher(source)
      const refreshAfter = Duration.toMillis(options.refreshAfter ?? "6 hours")
      const retryAfter = Duration.toMillis(
        options.retryAfter ?? Duration.min(Duration.millis(refreshAfter), Duration.minutes(5))
      )
      // nextCheckAt 0: a stored copy is served at once, and the first request asks GitHub for a newer one
      const state = yield* Ref.make<State>({ copy: yield* storedCopy(source), nextCheckAt: 0, refreshing: false })
      const semaphore = yield* Effect.makeSemaphore(1)
      const scope = yield* Effect.scope

      /** Run under the semaphore (one fetch at a time); the outcome decides when GitHub is asked next. */
      const fetchAndKeep = Effect.gen(function*() {
        const previous = (yield* Ref.get(state)).copy
        const result = yield* Effect.either(fetchCopy(previous))
        const now = yield* Clock.currentTimeMillis
        if (result._tag === "Left") {
          yield* Effect.logWarning("skills refresh from GitHub failed", { reason: result.left.message })
          yield* Ref.update(state, (s) => ({ ...s, nextCheckAt: now + retryAfter }))
          return previous?.collection ?? (yield* Effect.fail(result.left))
        }
        const copy = result.right
        yield* Ref.update(state, (s) => ({ ...s, copy, nextCheckAt: now + refreshAfter }))
        if (previous?.collection.version !== copy.collection.version) yield* generation.bump
        return copy.collection
      })
      const refresh = semaphore.withPermits(1)(fetchAndKeep)

      const firstCopy = semaphore.withPermits(1)(
        Effect.flatMap(Ref.get(state), (s) => s.copy === undefined ? fetchAndKeep : Effect.succeed(s.copy.collection))
      ).pipe(
        Effect.mapError((error) =>
          new UpstreamUnavailable({
            detail: `The skills repository is unavailable and no copy is held (${error.message}); retry later.`,
            upstream: "github"
          })
        )
      )

      const revalidateInBackground = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const start = yield* Ref.modify(state, (s) =>
          s.refreshing || now < s.nextCheckAt ? [false, s] : [true, { ...s, refreshing: true }])
        if (start) {
          yield* refresh.pipe(
            Effect.ignore,
            Effect.ensuring(Ref.update(state, (s) => ({ ...s, refreshing: false }))),
            Effect.forkIn(scope)
          )
        }
      })

      const collection = Effect.flatMap(Ref.get(state), (s) =>
        s.copy === undefined
          ? firstCopy
          : Effect.as(revalidateInBackground, s.copy.collection))

      yield* Effect.forkIn(Effect.ignore(firstCopy), scope)
      return fromCollection(collection, config.publicBaseUrl)
    })
  )
