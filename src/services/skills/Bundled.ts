import { Effect, Layer, Option, Ref } from "effect"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { AppConfig } from "../AppConfig.ts"
import { fromCollection, SkillsMirror } from "../SkillsMirror.ts"
import {
  assemble,
  classifyPath,
  decodeText,
  limits,
  logProblems,
  type SkillCollection,
  type SkillEntry,
  type SourceProblem
} from "./Collection.ts"

/** The repository's `skills/` folder, found from this module's location: independent of the working directory. */
export const defaultRoot: URL = new URL("../../../skills/", import.meta.url)

export interface DirectoryRead {
  readonly entries: ReadonlyArray<SkillEntry>
  readonly problems: ReadonlyArray<SourceProblem>
}

/**
 * Reads a skills folder in the fixed layout, two levels deep below each skill folder. Symbolic
 * links and special files are reported and never followed, so nothing outside the folder is read.
 */
export const readDirectory = async (root: URL): Promise<DirectoryRead> => {
  const base = fileURLToPath(root)
  const problems: Array<SourceProblem> = []
  const paths: Array<string> = []
  const walk = async (relative: string, depth: number): Promise<void> => {
    for (const entry of await readdir(join(base, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`
      if (entry.isFile()) paths.push(path)
      else if (entry.isDirectory() && depth < 2) await walk(path, depth + 1)
      else problems.push({ path, message: entry.isDirectory() ? "nested too deep" : "not a regular file" })
    }
  }
  await walk("", 0)
  const entries: Array<SkillEntry> = []
  let total = 0
  for (const path of paths.sort()) {
    const where = classifyPath(path)
    if (where._tag === "Unexpected") {
      problems.push({ path, message: where.reason })
      continue
    }
    if (entries.length >= limits.maxFiles) throw new Error(`more than ${limits.maxFiles} files`)
    const bytes = await readFile(join(base, path))
    total += bytes.byteLength
    if (total > limits.maxTotalBytes) throw new Error(`more than ${limits.maxTotalBytes} bytes`)
    const text = bytes.byteLength <= limits.maxFileBytes ? decodeText(bytes) : undefined
    if (text === undefined) problems.push({ path, message: "larger than 512 KiB or not UTF-8 text: not served" })
    else entries.push({ path, text })
  }
  return { entries, problems }
}

/**
 * Skills from the folder bundled with the service (`SKILLS_SOURCE=bundled`). The folder is read
 * once; when it cannot be read, requests answer 503 and the next request reads again.
 */
export const layer = (root: URL = defaultRoot): Layer.Layer<SkillsMirror, never, AppConfig> =>
  Layer.effect(
    SkillsMirror,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const upstream = `${config.publicBaseUrl}/skills`
      const held = yield* Ref.make(Option.none<SkillCollection>())
      const semaphore = yield* Effect.makeSemaphore(1)
      const read = Effect.tryPromise(() => readDirectory(root)).pipe(
        Effect.map((found) => ({ found, assembled: assemble({ entries: found.entries, upstream }) })),
        Effect.tap(({ assembled, found }) => logProblems([...found.problems, ...assembled.problems])),
        Effect.map(({ assembled }) => assembled.collection),
        Effect.tap((collection) => Ref.set(held, Option.some(collection))),
        Effect.tapError((error) => Effect.logError("bundled skills folder could not be read", String(error.cause))),
        Effect.mapError(() =>
          new UpstreamUnavailable({ detail: "The bundled skills folder could not be read.", upstream: "skills" })
        )
      )
      const load = semaphore.withPermits(1)(Effect.flatMap(
        Ref.get(held),
        Option.match({
          onNone: () => read,
          onSome: Effect.succeed
        })
      ))
      yield* Effect.ignore(load)
      return fromCollection(
        Effect.flatMap(Ref.get(held), Option.match({ onNone: () => load, onSome: Effect.succeed })),
        config.publicBaseUrl
      )
    })
  )
