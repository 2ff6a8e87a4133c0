import { Effect, Option, Schema } from "effect"
import type { BundleSkills } from "../../domain/Bundle.ts"
import { MirroredSkills } from "../../domain/Bundle.ts"
import { AppConfig } from "../AppConfig.ts"
import { blobId, mirrorOnce } from "../skills/GitHub.ts"
import { formatSkillsSource, parseSkillsSource } from "../skills/Source.ts"
import * as StoredCopy from "../skills/StoredCopy.ts"

/**
 * Skills mirrored from GitHub in a bundle: when the exporting instance serves `SKILLS_SOURCE=github:…`,
 * the files of the skills folder at the commit GitHub has now (else the copy it stored earlier) in
 * one JSON file; the importing instance stores them, and its mirror of the same source serves them
 * until GitHub can be reached. Instances that serve the bundled skills export no section: those
 * ship with the package.
 */

export const skillsPath = "skills/github-mirror.json"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export const exportSkills = Effect.gen(function*() {
  const config = yield* AppConfig
  const source = config.skillsSource
  if (source._tag !== "GitHub") return undefined
  const name = formatSkillsSource(source)
  const mirrored = yield* Effect.either(mirrorOnce(source))
  const copy = mirrored._tag === "Right"
    ? mirrored.right
    : yield* Effect.flatMap(
      StoredCopy.read(config.dataDir, name),
      Option.match({
        onSome: Effect.succeed,
        onNone: () =>
          Effect.fail(
            `the skills of SKILLS_SOURCE=${name} could not be read from GitHub (${mirrored.left.message}) ` +
              "and no copy of them is stored"
          )
      })
    )
  const section: typeof BundleSkills.Type = {
    source: copy.source,
    commit: copy.commit,
    files: copy.files.length,
    path: skillsPath
  }
  return { section, entry: [skillsPath, encoder.encode(JSON.stringify(copy))] as const }
})

/** The bundle's skills, decoded and checked against its manifest section and their git blob ids. */
export const readSkills = (section: typeof BundleSkills.Type, bytes: Uint8Array) =>
  Effect.gen(function*() {
    const copy = yield* Schema.decodeUnknown(Schema.parseJson(MirroredSkills))(decoder.decode(bytes)).pipe(
      Effect.mapError(() => `${section.path} has an unexpected shape`)
    )
    const problems: Array<string> = []
    if (parseSkillsSource(copy.source)?._tag !== "GitHub") problems.push(`${copy.source} is not a GitHub skills source`)
    if (copy.source !== section.source || copy.commit !== section.commit || copy.files.length !== section.files) {
      problems.push(`${section.path} does not match the manifest's skills section`)
    }
    const altered = copy.files.find((file) => blobId(encoder.encode(file.text), file.blob.length) !== file.blob)
    if (altered !== undefined) problems.push(`skills file ${altered.path} does not match its git object id`)
    return problems.length === 0 ? copy : yield* Effect.fail(problems.join("; "))
  })
