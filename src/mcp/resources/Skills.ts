import { Effect, Option } from "effect"
import { isSkillName, type SkillFileKind, SkillFileKinds } from "../../domain/Skills.ts"
import { SkillsMirror } from "../../services/SkillsMirror.ts"
import type * as Resource from "../Resource.ts"

const scheme = "svc://skills/"
const markdown = "text/markdown"

/** `svc://skills/<name>` for a main file; `svc://skills/<name>/<kind>/<file>` (file URI-encoded) for the rest. */
export const skillUri = (name: string, kind?: SkillFileKind, filename?: string): string =>
  kind === undefined || filename === undefined
    ? `${scheme}${name}`
    : `${scheme}${name}/${kind}/${encodeURIComponent(filename)}`

const isKind = (value: string): value is SkillFileKind => (SkillFileKinds as ReadonlyArray<string>).includes(value)

type Target =
  | { readonly _tag: "Main"; readonly name: string }
  | { readonly _tag: "File"; readonly name: string; readonly kind: SkillFileKind; readonly filename: string }

const targetOf = (uri: string): Target | undefined => {
  if (!uri.startsWith(scheme)) return undefined
  const parts = uri.slice(scheme.length).split("/")
  const [name, kind, encoded] = parts
  if (name === undefined || !isSkillName(name)) return undefined
  if (parts.length === 1) return { _tag: "Main", name }
  if (parts.length !== 3 || kind === undefined || !isKind(kind) || encoded === undefined) return undefined
  try {
    return { _tag: "File", name, kind, filename: decodeURIComponent(encoded) }
  } catch {
    return undefined
  }
}

/**
 * Every skill file as a resource: the 20 main files first (the ones an agent needs on page one),
 * then each skill's templates, references and prompts. Content is what `GET /skills/…` serves.
 */
export const skillResources: Resource.Provider<unknown, SkillsMirror> = {
  name: "skills",
  // skill content is mirrored and edge-cached for 6 hours
  ttlMs: 21_600_000,
  templates: [{
    uriTemplate: `${scheme}{name}/{kind}/{filename}`,
    name: "skill-file",
    title: "Skill file",
    description: "A template, reference or prompt of a skill: kind is templates, references or prompts; " +
      "filename as listed by list_skills, URI-encoded. The main file is svc://skills/{name}.",
    mimeType: markdown
  }],
  list: Effect.flatMap(SkillsMirror, (mirror) =>
    Effect.map(mirror.snapshot, (snapshot) => {
      const skills = [...snapshot.collection.skills.values()]
      const mains = skills.map((skill): Resource.ResourceInfo => ({
        uri: skillUri(skill.name),
        name: skill.name,
        title: `${skill.name} (SKILL.md)`,
        description: skill.description,
        mimeType: markdown
      }))
      const files = skills.flatMap((skill) =>
        SkillFileKinds.flatMap((kind) =>
          [...skill.files[kind].keys()].map((filename): Resource.ResourceInfo => ({
            uri: skillUri(skill.name, kind, filename),
            name: `${skill.name}/${kind}/${filename}`,
            mimeType: markdown
          }))
        )
      )
      return [...mains, ...files]
    })),
  read: (uri) => {
    const target = targetOf(uri)
    if (target === undefined) return Effect.succeed(Option.none())
    return Effect.flatMap(SkillsMirror, (mirror) => {
      const text = target._tag === "Main"
        ? Effect.map(mirror.skill(target.name), (skill) => skill.skillMd)
        : mirror.file(target.name, target.kind, target.filename)
      return text.pipe(
        Effect.map((found) => Option.some({ uri, mimeType: markdown, text: found })),
        // an unpublished skill or a missing file is "no such resource"; an unreachable source is an error
        Effect.catchTags({
          UnknownSkill: () => Effect.succeed(Option.none()),
          SkillNotPublished: () => Effect.succeed(Option.none()),
          SkillFileNotFound: () => Effect.succeed(Option.none())
        })
      )
    })
  }
}
