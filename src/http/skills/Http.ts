import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import type { SkillFileKind } from "../../domain/Skills.ts"
import { SkillsMirror } from "../../services/SkillsMirror.ts"
import { Api } from "../Api.ts"

const markdown = (text: string) => HttpServerResponse.text(text, { contentType: "text/markdown; charset=utf-8" })

export const SkillsHttpLive = HttpApiBuilder.group(Api, "skills", (handlers) =>
  Effect.gen(function*() {
    const mirror = yield* SkillsMirror
    const file =
      (kind: SkillFileKind) => ({ path }: { readonly path: { readonly name: string; readonly filename: string } }) =>
        Effect.map(mirror.file(path.name, kind, path.filename), markdown)
    return handlers
      .handle("listSkills", () => mirror.list)
      .handle("getSkill", ({ path }) => Effect.map(mirror.skill(path.name), (skill) => markdown(skill.skillMd)))
      .handle("getSkillBundle", ({ path }) => mirror.bundle(path.name))
      .handle("getSkillTemplate", file("templates"))
      .handle("getSkillReference", file("references"))
      .handle("getSkillPrompt", file("prompts"))
  }))
