import type { Ranked } from "./Baselines.ts"
import type { Case } from "./Variants.ts"

/** What one matcher answered for one case: its ranked entries (best first, scores 0–1). */
export interface Outcome {
  readonly case: Case
  readonly ranked: ReadonlyArray<Ranked>
  /** Wall-clock time of the search. */
  readonly millis: number
  /** CPU time of the process during the search (unaffected by other processes on the machine). */
  readonly cpuMillis: number
}

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits

const rankOfTarget = (outcome: Outcome) => outcome.ranked.findIndex((hit) => outcome.case.targets.includes(hit.entry))

const topScore = (outcome: Outcome) => outcome.ranked[0]?.score ?? 0

/**
 * The value a case contributes to the ROC curve: the top-1 score, except that a positive whose
 * target is not ranked first counts as a miss (score 0).
 */
const rocValue = (outcome: Outcome) => (outcome.case.positive && rankOfTarget(outcome) !== 0 ? 0 : topScore(outcome))

/** Area under the ROC curve (Mann-Whitney U, ties counted half). */
export const rocAuc = (positives: ReadonlyArray<number>, negatives: ReadonlyArray<number>): number => {
  const all = [
    ...positives.map((value) => ({ value, positive: true })),
    ...negatives.map((value) => ({ value, positive: false }))
  ].sort((a, b) => a.value - b.value)
  let rankSum = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j < all.length && all[j]!.value === all[i]!.value) j++
    const averageRank = (i + 1 + j) / 2
    for (let k = i; k < j; k++) if (all[k]!.positive) rankSum += averageRank
    i = j
  }
  const p = positives.length
  const n = negatives.length
  return p === 0 || n === 0 ? Number.NaN : (rankSum - (p * (p + 1)) / 2) / (p * n)
}

const percentile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

export interface KindFigures {
  readonly cases: number
  /** Positives: target ranked first / within the first ten / first and at or above the threshold. */
  readonly recallAt1?: number
  readonly recallAt10?: number
  readonly recallAtThreshold?: number
  /** Negatives: share whose best score reaches the threshold. */
  readonly aboveThreshold?: number
}

export const figures = (outcomes: ReadonlyArray<Outcome>, threshold: number) => {
  const byKind = new Map<string, Array<Outcome>>()
  for (const outcome of outcomes) {
    const list = byKind.get(outcome.case.kind) ?? []
    list.push(outcome)
    byKind.set(outcome.case.kind, list)
  }
  const hitAt1 = (o: Outcome) => rankOfTarget(o) === 0
  const hitAt10 = (o: Outcome) => rankOfTarget(o) >= 0 && rankOfTarget(o) < 10
  const correctAlert = (o: Outcome) => o.case.positive && hitAt1(o) && topScore(o) >= threshold
  const share = (list: ReadonlyArray<Outcome>, test: (o: Outcome) => boolean) =>
    round(list.filter(test).length / Math.max(1, list.length))

  const kinds: Record<string, KindFigures> = {}
  for (const [kind, list] of byKind) {
    kinds[kind] = list[0]!.case.positive
      ? {
        cases: list.length,
        recallAt1: share(list, hitAt1),
        recallAt10: share(list, hitAt10),
        recallAtThreshold: share(list, correctAlert)
      }
      : { cases: list.length, aboveThreshold: share(list, (o) => topScore(o) >= threshold) }
  }

  const positives = outcomes.filter((o) => o.case.positive)
  const negatives = outcomes.filter((o) => !o.case.positive)
  const alerts = outcomes.filter((o) => topScore(o) >= threshold)
  const timing = (values: Array<number>) => {
    values.sort((a, b) => a - b)
    const total = values.reduce((sum, value) => sum + value, 0)
    return {
      p50Millis: round(percentile(values, 0.5), 3),
      p99Millis: round(percentile(values, 0.99), 3),
      meanMillis: round(total / Math.max(1, values.length), 3),
      queriesPerSecond: Math.round(values.length / (total / 1000))
    }
  }
  return {
    kinds,
    overall: {
      positives: positives.length,
      negatives: negatives.length,
      recallAt1: share(positives, hitAt1),
      recallAt10: share(positives, hitAt10),
      precisionAtThreshold: round(alerts.filter(correctAlert).length / Math.max(1, alerts.length)),
      recallAtThreshold: share(positives, correctAlert),
      rocAuc: round(rocAuc(positives.map(rocValue), negatives.map(rocValue)))
    },
    latency: timing(outcomes.map((o) => o.millis)),
    cpu: timing(outcomes.map((o) => o.cpuMillis))
  }
}

export type Figures = ReturnType<typeof figures>
