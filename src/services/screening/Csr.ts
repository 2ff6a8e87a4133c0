/**
 * Compressed sparse rows: many small integer lists in two flat arrays (`start`, `values`), the
 * layout every per-name and per-token list of the name index uses.
 */

export const csr = (lists: ReadonlyArray<ReadonlyArray<number>>) => {
  const start = new Int32Array(lists.length + 1)
  let total = 0
  lists.forEach((list, i) => {
    start[i] = total
    total += list.length
  })
  start[lists.length] = total
  const values = new Int32Array(total)
  lists.forEach((list, i) => values.set(list, start[i]!))
  return { start, values }
}

/**
 * Inverted lists in CSR form: for each id below `ids`, the names (ascending, each once) whose list
 * contains it. Built by counting, without an array per id.
 */
export const postings = (listsByName: ReadonlyArray<ReadonlyArray<number>>, ids: number) => {
  const start = new Int32Array(ids + 1)
  const lastName = new Int32Array(ids).fill(-1)
  listsByName.forEach((list, name) => {
    for (const id of list) {
      if (lastName[id] === name) continue
      lastName[id] = name
      start[id + 1]!++
    }
  })
  for (let id = 0; id < ids; id++) start[id + 1]! += start[id]!
  const values = new Int32Array(start[ids]!)
  const fill = start.slice(0, ids)
  lastName.fill(-1)
  listsByName.forEach((list, name) => {
    for (const id of list) {
      if (lastName[id] === name) continue
      lastName[id] = name
      values[fill[id]!++] = name
    }
  })
  return { start, values }
}

/**
 * For each posting of `postings(listsByName, …)`, the largest `weightOf(name, k)` over the name's
 * list items with that id: what share of the name a match through the id covers.
 */
export const postingWeights = (
  listsByName: ReadonlyArray<ReadonlyArray<number>>,
  start: Int32Array,
  weightOf: (name: number, k: number) => number
) => {
  const weights = new Float32Array(start[start.length - 1]!)
  const fill = start.slice(0, start.length - 1)
  const lastName = new Int32Array(start.length - 1).fill(-1)
  const at = new Int32Array(start.length - 1)
  listsByName.forEach((list, name) => {
    list.forEach((id, k) => {
      if (lastName[id] !== name) {
        lastName[id] = name
        at[id] = fill[id]!++
      }
      weights[at[id]!] = Math.max(weights[at[id]!]!, weightOf(name, k))
    })
  })
  return weights
}
