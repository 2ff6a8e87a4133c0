import { Context, Effect } from "effect"
import type { UpstreamUnavailable } from "../domain/Problem.ts"
import {
  isSkillName,
  type SkillBundle,
  type SkillFileKind,
  SkillFileKinds,
  SkillFileNotFound,
  type SkillList,
  type SkillMeta,
  SkillNames,
  SkillNotPublished,
  UnknownSkill
} from "../domain/Skills.ts"
import type { PublishedSkill, SkillCollection } from "./skills/Collection.ts"

export type SkillLookupError = UnknownSkill | SkillNotPublished | UpstreamUnavailable

/**
 * The 20 skills as REST and MCP serve them. Layers differ by where the content comes from (the
 * bundled `skills/` folder, or a GitHub repository); both answer from an in-memory collection, so
 * names from requests are only ever map keys.
 */
export interface SkillsMirrorShape {
  /** The collection currently served; `UpstreamUnavailable` only when no copy is held at all. */
  readonly collection: Effect.Effect<SkillCollection, UpstreamUnavailable>
  /** The skill list payload, with absolute URLs under `PUBLIC_BASE_URL`. */
  readonly list: Effect.Effect<SkillList, UpstreamUnavailable>
  readonly skill: (name: string) => Effect.Effect<PublishedSkill, SkillLookupError>
  readonly bundle: (name: string) => Effect.Effect<SkillBundle, SkillLookupError>
  readonly file: (
    name: string,
    kind: SkillFileKind,
    filename: string
  ) => Effect.Effect<string, SkillLookupError | SkillFileNotFound>
}

export class SkillsMirror extends Context.Tag("app/SkillsMirror")<SkillsMirror, SkillsMirrorShape>() {}

const quoted = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value)

const memoized = <A>(build: (collection: SkillCollection) => A) => {
  const built = new WeakMap<SkillCollection, A>()
  return (collection: SkillCollection): A => {
    let value = built.get(collection)
    if (value === undefined) built.set(collection, value = build(collection))
    return value
  }
}

/** The service over a source of collections; payloads are built once per collection. */
export const fromCollection = (
  collection: Effect.Effect<SkillCollection, UpstreamUnavailable>,
  baseUrl: string
): SkillsMirrorShape => {
  const skillUrl = (name: string) => `${baseUrl}/skills/${name}`
  const fileUrls = (skill: PublishedSkill, kind: SkillFileKind) =>
    Array.from(skill.files[kind].keys(), (file) => `${skillUrl(skill.name)}/${kind}/${encodeURIComponent(file)}`)

  const meta = (skill: PublishedSkill): SkillMeta => ({
    name: skill.name,
    description: skill.description,
    ...(skill.upstream === undefined ? {} : { upstream: skill.upstream }),
    urls: {
      skill_md: skillUrl(skill.name),
      bundle: `${skillUrl(skill.name)}/bundle`,
      templates: fileUrls(skill, "templates"),
      references: fileUrls(skill, "references"),
      prompts: fileUrls(skill, "prompts")
    },
    assets: {
      templates: [...skill.files.templates.keys()],
      references: [...skill.files.references.keys()],
      prompts: [...skill.files.prompts.keys()]
    }
  })

  const listOf = memoized((current): SkillList => ({
    count: current.skills.size,
    upstream: current.upstream,
    mcp: `${baseUrl}/mcp`,
    skills: Array.from(current.skills.values(), meta)
  }))

  const bundles = memoized(() => new Map<PublishedSkill, SkillBundle>())
  const bundleOf = (current: SkillCollection, skill: PublishedSkill): SkillBundle => {
    const cache = bundles(current)
    let bundle = cache.get(skill)
    if (bundle === undefined) {
      const files = Object.fromEntries(
        SkillFileKinds.filter((kind) => skill.files[kind].size > 0).map((kind) => [
          kind,
          Object.fromEntries(skill.files[kind])
        ])
      )
      bundle = {
        name: skill.name,
        description: skill.description,
        ...(skill.upstream === undefined ? {} : { upstream: skill.upstream }),
        skill_md: skill.skillMd,
        ...files
      }
      cache.set(skill, bundle)
    }
    return bundle
  }

  const lookup = (current: SkillCollection, name: string): Effect.Effect<PublishedSkill, SkillLookupError> => {
    if (!isSkillName(name)) {
      return Effect.fail(
        new UnknownSkill({ detail: `There is no skill named ${quoted(name)}; see \`skills\`.`, skills: SkillNames })
      )
    }
    const skill = current.skills.get(name)
    return skill === undefined
      ? Effect.fail(
        new SkillNotPublished({ detail: `The skills source holds no valid copy of ${name} right now.`, skill: name })
      )
      : Effect.succeed(skill)
  }

  const skill = (name: string) => Effect.flatMap(collection, (current) => lookup(current, name))

  return {
    collection,
    list: Effect.map(collection, listOf),
    skill,
    bundle: (name) =>
      Effect.flatMap(collection, (current) => Effect.map(lookup(current, name), (found) => bundleOf(current, found))),
    file: (name, kind, filename) =>
      Effect.flatMap(skill(name), (found) => {
        const text = found.files[kind].get(filename)
        return text === undefined
          ? Effect.fail(
            new SkillFileNotFound({
              detail: `${found.name} has no ${kind} file named ${quoted(filename)}; see \`available\`.`,
              skill: found.name,
              kind,
              available: [...found.files[kind].keys()]
            })
          )
          : Effect.succeed(text)
      })
  }
}
