import type { HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AppConfig } from "../services/AppConfig.ts"
import type { DataGeneration } from "../services/DataGeneration.ts"
import * as BundledSkills from "../services/skills/Bundled.ts"
import * as GitHubSkills from "../services/skills/GitHub.ts"
import type { SkillsMirror } from "../services/SkillsMirror.ts"

/** The skills layer `SKILLS_SOURCE` names: the bundled `skills/` folder, or a GitHub repository. */
export const SkillsFromConfig: Layer.Layer<SkillsMirror, never, AppConfig | DataGeneration | HttpClient.HttpClient> =
  Layer.unwrapEffect(Effect.map(AppConfig, (config) =>
    config.skillsSource._tag === "GitHub"
      ? GitHubSkills.layer(config.skillsSource)
      : BundledSkills.layer()))
