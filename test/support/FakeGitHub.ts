import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type FakeUpstream, json, startFakeUpstream } from "./FakeUpstream.ts"

// every fake repository of a test file holds mostly the same files: each content asks git once
const blobIds = new Map<string, string>()

/**
 * Git's own object id for the bytes (`git hash-object`), so the fake agrees with real GitHub. Each
 * `git` run blocks the test's worker (it is synchronous); a content already asked for is not asked
 * again.
 */
const gitBlobId = (bytes: Uint8Array): string => {
  const key = createHash("sha256").update(bytes).digest("hex")
  let id = blobIds.get(key)
  if (id === undefined) {
    id = execFileSync("git", ["hash-object", "--stdin"], { input: bytes }).toString().trim()
    blobIds.set(key, id)
  }
  return id
}

interface Snapshot {
  readonly commit: string
  readonly files: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly id: string }>
}

export interface FakeGitHub {
  readonly upstream: FakeUpstream
  /** API root for `GITHUB_API_BASE_URL`. */
  readonly apiUrl: string
  /** Raw-content root for `GITHUB_RAW_BASE_URL`. */
  readonly rawUrl: string
  /** Commit the branch points at. */
  readonly head: () => string
  /** Commits the branch: replaces (or with `undefined`, deletes) files by repository path. */
  readonly commit: (changes: Readonly<Record<string, string | undefined>>) => string
  /** Raw downloads of these repository paths answer other bytes than the tree announced. */
  readonly corrupt: Set<string>
  readonly hits: (prefix: string) => number
  readonly close: () => Promise<void>
}

/** Every file of a folder as `{ "<prefix>/<relative path>": text }`. */
export const filesOf = (root: URL, prefix: string): Record<string, string> => {
  const base = fileURLToPath(root)
  const files: Record<string, string> = {}
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(base, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else files[`${prefix}/${path}`] = readFileSync(join(base, path), "utf8")
    }
  }
  walk("")
  return files
}

/**
 * A loopback GitHub for one repository and one branch: `GET /repos/{o}/{r}/commits/{ref}` (the
 * `application/vnd.github.sha` form, with an ETag and 304), `GET /repos/{o}/{r}/git/trees/{sha}`
 * and raw content under `/raw/{o}/{r}/{sha}/{path}`, all answering from immutable snapshots.
 */
export const startFakeGitHub = async (options: {
  readonly owner: string
  readonly repo: string
  readonly branch: string
  readonly files: Readonly<Record<string, string>>
}): Promise<FakeGitHub> => {
  const snapshots = new Map<string, Snapshot>()
  let head: Snapshot | undefined
  const corrupt = new Set<string>()
  const commit = (changes: Readonly<Record<string, string | undefined>>) => {
    const files = new Map(head?.files ?? [])
    for (const [path, text] of Object.entries(changes)) {
      if (text === undefined) files.delete(path)
      else {
        const bytes = new TextEncoder().encode(text)
        files.set(path, { bytes, id: gitBlobId(bytes) })
      }
    }
    const id = createHash("sha1")
    for (const [path, file] of [...files].sort(([a], [b]) => a < b ? -1 : 1)) id.update(`${path}\0${file.id}\n`)
    head = { commit: id.digest("hex"), files }
    snapshots.set(head.commit, head)
    return head.commit
  }
  commit(options.files)

  const repoPath = `/repos/${options.owner}/${options.repo}`
  const rawPath = `/raw/${options.owner}/${options.repo}/`
  const upstream = await startFakeUpstream([(request, url) => {
    if (url.pathname === `${repoPath}/commits/${options.branch}`) {
      if (request.headers.accept !== "application/vnd.github.sha") return json({ message: "fake: sha only" }, 415)
      const etag = `W/"${head!.commit}"`
      if (request.headers["if-none-match"] === etag) return { status: 304, headers: { etag } }
      return { headers: { etag, "content-type": "application/vnd.github.sha" }, body: head!.commit }
    }
    if (url.pathname.startsWith(`${repoPath}/git/trees/`)) {
      const snapshot = snapshots.get(url.pathname.slice(`${repoPath}/git/trees/`.length))
      if (snapshot === undefined) return json({ message: "Not Found" }, 404)
      const folders = new Set<string>()
      for (const path of snapshot.files.keys()) {
        const parts = path.split("/")
        for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"))
      }
      return json({
        sha: snapshot.commit,
        truncated: false,
        tree: [
          ...[...folders].map((path) => ({ path, mode: "040000", type: "tree", sha: gitBlobId(Buffer.from(path)) })),
          ...[...snapshot.files].map(([path, file]) => ({
            path,
            mode: "100644",
            type: "blob",
            sha: file.id,
            size: file.bytes.byteLength
          }))
        ]
      })
    }
    if (url.pathname.startsWith(rawPath)) {
      const rest = url.pathname.slice(rawPath.length)
      const slash = rest.indexOf("/")
      const snapshot = snapshots.get(rest.slice(0, slash))
      const path = decodeURIComponent(rest.slice(slash + 1))
      const file = snapshot?.files.get(path)
      if (file === undefined) return { status: 404, body: "404: Not Found" }
      return {
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: corrupt.has(path) ? "tampered" : file.bytes
      }
    }
    return undefined
  }])
  return {
    upstream,
    apiUrl: upstream.url,
    rawUrl: `${upstream.url}/raw`,
    head: () => head!.commit,
    commit,
    corrupt,
    hits: (prefix) => [...upstream.hits].reduce((sum, [path, count]) => sum + (path.startsWith(prefix) ? count : 0), 0),
    close: upstream.close
  }
}
