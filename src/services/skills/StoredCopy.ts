import { Effect, Option, Schema } from "effect"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { MirroredSkills } from "../../domain/Bundle.ts"

/**
 * The copy of GitHub-mirrored skills kept under `DATA_DIR/skills/` by a bundle import: the mirror
 * of the same `SKILLS_SOURCE` starts from it, so an instance that cannot reach GitHub serves the
 * skills the bundle carried (and takes newer ones from GitHub whenever it can).
 */
const pathIn = (dataDir: string) => join(dataDir, "skills", "github-mirror.json")

export class StoredSkillsError extends Schema.TaggedError<StoredSkillsError>()("StoredSkillsError", {
  message: Schema.String
}) {}

const decode = Schema.decodeUnknown(Schema.parseJson(MirroredSkills))

/** The stored copy for this source; none when there is none, it is unreadable, or it was made for another source. */
export const read = (dataDir: string, source: string): Effect.Effect<Option.Option<MirroredSkills>> =>
  Effect.tryPromise(() => readFile(pathIn(dataDir), "utf8")).pipe(
    Effect.flatMap(decode),
    Effect.map((copy) => copy.source === source ? Option.some(copy) : Option.none()),
    Effect.orElseSucceed(() => Option.none())
  )

export const write = (dataDir: string, copy: MirroredSkills): Effect.Effect<void, StoredSkillsError> =>
  Effect.tryPromise({
    try: async () => {
      const path = pathIn(dataDir)
      await mkdir(join(dataDir, "skills"), { recursive: true })
      await writeFile(`${path}.tmp`, JSON.stringify(copy))
      await rename(`${path}.tmp`, path)
    },
    catch: (error) =>
      new StoredSkillsError({ message: `the skills copy could not be written under DATA_DIR (${String(error)})` })
  })
