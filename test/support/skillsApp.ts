import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import type { AppConfig } from "../../src/services/AppConfig.ts"
import type { DataGeneration } from "../../src/services/DataGeneration.ts"
import type { SkillsMirror } from "../../src/services/SkillsMirror.ts"
import { testStore } from "./TestStore.ts"

/** The public app with another skills layer in place of the one `SKILLS_SOURCE` names. */
export const appWithSkills = (
  skills: Layer.Layer<SkillsMirror, never, AppConfig | DataGeneration | HttpClient.HttpClient>
) =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(skills.pipe(Layer.provide(FetchHttpClient.layer))),
      Layer.provide(PublicServices)
    ),
    `node ${process.version}`,
    testStore
  )
