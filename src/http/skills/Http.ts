import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { SkillBundle, type SkillFileKind, SkillList } from "../../domain/Skills.ts"
import { SkillsMirror, type SkillsSnapshot } from "../../services/SkillsMirror.ts"
import { Api } from "../Api.ts"
import { weakEtag } from "../middleware/Caching.ts"

const encoder = new TextEncoder()

const prebuilt = (body: Uint8Array, contentType: string) =>
  HttpServerResponse.uint8Array(body, { contentType, headers: { etag: weakEtag(body) } })

const markdown = (text: string) => prebuilt(encoder.encode(text), "text/markdown; charset=utf-8")

const json = <A, I>(schema: Schema.Schema<A, I>) => (value: A) =>
  prebuilt(encoder.encode(JSON.stringify(Schema.encodeSync(schema)(value))), "application/json")

/**
 * Responses are encoded once per snapshot, validator included, and reused until the content
 * changes; only successful lookups are remembered, so the memo holds at most one entry per file.
 */
const memoPerSnapshot = () => {
  const memo = new WeakMap<SkillsSnapshot, Map<string, HttpServerResponse.HttpServerResponse>>()
  return <E>(
    snapshot: SkillsSnapshot,
    key: string,
    build: Effect.Effect<HttpServerResponse.HttpServerResponse, E>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E> => {
    let responses = memo.get(snapshot)
    if (responses === undefined) memo.set(snapshot, responses = new Map())
    const hit = responses.get(key)
    return hit !== undefined ? Effect.succeed(hit) : Effect.tap(build, (response) => responses.set(key, response))
  }
}

export const SkillsHttpLive = HttpApiBuilder.group(Api, "skills", (handlers) =>
  Effect.gen(function*() {
    const mirror = yield* SkillsMirror
    const memo = memoPerSnapshot()
    const listJson = json(SkillList)
    const bundleJson = json(SkillBundle)
    const file =
      (kind: SkillFileKind) => ({ path }: { readonly path: { readonly name: string; readonly filename: string } }) =>
        Effect.flatMap(mirror.snapshot, (snapshot) =>
          memo(
            snapshot,
            `${kind}\0${path.name}\0${path.filename}`,
            Effect.map(snapshot.file(path.name, kind, path.filename), markdown)
          ))
    return handlers
      .handle("listSkills", () =>
        Effect.flatMap(mirror.snapshot, (snapshot) =>
          memo(
            snapshot,
            "list",
            Effect.sync(() => listJson(snapshot.list))
          )))
      .handle("getSkill", ({ path }) =>
        Effect.flatMap(mirror.snapshot, (snapshot) =>
          memo(
            snapshot,
            `main\0${path.name}`,
            Effect.map(snapshot.skill(path.name), (skill) => markdown(skill.skillMd))
          )))
      .handle("getSkillBundle", ({ path }) =>
        Effect.flatMap(mirror.snapshot, (snapshot) =>
          memo(snapshot, `bundle\0${path.name}`, Effect.map(snapshot.bundle(path.name), bundleJson))))
      .handle("getSkillTemplate", file("templates"))
      .handle("getSkillReference", file("references"))
      .handle("getSkillPrompt", file("prompts"))
  }))
