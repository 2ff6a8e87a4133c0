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

export type SkillLookupError = UnknownSkill | SkillNotPublished

/** The skills at one moment: payloads and lookups over one collection, built once per collection. */
export interface SkillsSnapshot {
  readonly collection: SkillCollection
  /** The skill list payload, with absolute URLs under `PUBLIC_BASE_URL`. */
  readonly list: SkillList
  readonly skill: (name: string) => Effect.Effect<PublishedSkill, SkillLookupError>
  readonly bundle: (name: string) => Effect.Effect<SkillBundle, SkillLookupError>
  readonly file: (
    name: string,
    kind: SkillFileKind,
    filename: string
  ) => Effect.Effect<string, SkillLookupError | SkillFileNotFound>
}

/**
 * The 20 skills as REST and MCP serve them. Layers differ by where the content comes from (the
 * bundled `skills/` folder, or a GitHub repository); both answer from an in-memory collection, so
 * names from requests are only ever map keys. `UpstreamUnavailable` means no copy is held at all.
 */
export interface SkillsMirrorShape {
  readonly snapshot: Effect.Effect<SkillsSnapshot, UpstreamUnavailable>
  readonly list: Effect.Effect<SkillList, UpstreamUnavailable>
  readonly skill: (name: string) => Effect.Effect<PublishedSkill, SkillLookupError | UpstreamUnavailable>
  readonly bundle: (name: string) => Effect.Effect<SkillBundle, SkillLookupError | UpstreamUnavailable>
  readonly file: (
    name: string,
    kind: SkillFileKind,
    filename: string
  ) => Effect.Effect<string, SkillLookupError | SkillFileNotFound | UpstreamUnavailable>
}

export class SkillsMirror extends Context.Tag("app/SkillsMirror")<SkillsMirror, SkillsMirrorShape>() {}

const quoted = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value)

const snapshotOf = (collection: SkillCollection, baseUrl: string): SkillsSnapshot => {
  const skillUrl = (name: string) => `${baseUrl}/skills/${name}`
  const fileUrls = (skill: PublishedSkill, kind: SkillFileKind) =>
    Array.from(skill.files[kind].keys(), (file) => `${skillUrl(skill.name)}/${kind}/${encodeURIComponent(file)}`)
  const upstream = (skill: PublishedSkill) => skill.upstream === undefined ? {} : { upstream: skill.upstream }

  const meta = (skill: PublishedSkill): SkillMeta => ({
    name: skill.name,
    description: skill.description,
    ...upstream(skill),
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

  const bundles = new Map<PublishedSkill, SkillBundle>()
  const bundleOf = (skill: PublishedSkill): SkillBundle => {
    let bundle = bundles.get(skill)
    if (bundle === undefined) {
      const files = SkillFileKinds.filter((kind) => skill.files[kind].size > 0).map((kind) =>
        [kind, Object.fromEntries(skill.files[kind])] as const
      )
      bundles.set(
        skill,
        bundle = {
          name: skill.name,
          description: skill.description,
          ...upstream(skill),
          skill_md: skill.skillMd,
          ...Object.fromEntries(files)
        }
      )
    }
    return bundle
  }

  const skill = (name: string): Effect.Effect<PublishedSkill, SkillLookupError> => {
    if (!isSkillName(name)) {
      return Effect.fail(
        new UnknownSkill({ detail: `There is no skill named ${quoted(name)}; see \`skills\`.`, skills: SkillNames })
      )
    }
    const found = collection.skills.get(name)
    return found === undefined
      ? Effect.fail(
        new SkillNotPublished({ detail: `The skills source holds no valid copy of ${name} right now.`, skill: name })
      )
      : Effect.succeed(found)
  }

  return {
    collection,
    list: {
      count: collection.skills.size,
      upstream: collection.upstream,
      mcp: `${baseUrl}/mcp`,
      skills: Array.from(collection.skills.values(), meta)
    },
    skill,
    bundle: (name) => Effect.map(skill(name), bundleOf),
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

/** The service over a source of collections; each collection gets one snapshot. */
export const fromCollection = (
  collection: Effect.Effect<SkillCollection, UpstreamUnavailable>,
  baseUrl: string
): SkillsMirrorShape => {
  const snapshots = new WeakMap<SkillCollection, SkillsSnapshot>()
  const snapshot = Effect.map(collection, (current) => {
    let found = snapshots.get(current)
    if (found === undefined) snapshots.set(current, found = snapshotOf(current, baseUrl))
    return found
  })
  return {
    snapshot,
    list: Effect.map(snapshot, (s) => s.list),
    skill: (name) => Effect.flatMap(snapshot, (s) => s.skill(name)),
    bundle: (name) => Effect.flatMap(snapshot, (s) => s.bundle(name)),
    file: (name, kind, filename) => Effect.flatMap(snapshot, (s) => s.file(name, kind, filename))
  }
}
