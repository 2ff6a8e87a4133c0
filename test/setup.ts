import { addEqualityTesters } from "@effect/vitest"
import { logCpuPerFile } from "./support/CpuLog.ts"

addEqualityTesters()

if (process.env.ECDS_TEST_CPU_LOG && process.platform === "linux") logCpuPerFile(process.env.ECDS_TEST_CPU_LOG)
