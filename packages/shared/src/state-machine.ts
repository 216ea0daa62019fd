/**
 * Transition tables: every status of the product is declared once here, with its Chinese label, the moves allowed
 * out of it and the domain event each move publishes. The server moves a status only through its table
 * (apps/server/src/lib/transition.ts); the web shows the labels.
 */
export interface Move<S extends string, E extends string = string> {
  from: readonly S[];
  to: S;
  /** Domain event published when the move is saved, e.g. `listing.approved`. */
  event: E;
}

export interface StateMachine<S extends string = string, M extends string = string, E extends string = string> {
  /** What moves, in Chinese ("挂牌审核状态"), for refusal messages. */
  label: string;
  states: Readonly<Record<S, string>>;
  moves: Readonly<Record<M, Move<S, E>>>;
}

/** Declares a table; the `const` type parameters keep state, move and event names as literal types. */
export function defineStateMachine<const S extends string, const M extends string, const E extends string>(machine: {
  label: string;
  states: Record<S, string>;
  moves: Record<M, { from: readonly NoInfer<S>[]; to: NoInfer<S>; event: E }>;
}): StateMachine<S, M, E> {
  return machine;
}

export type StateOf<T> = T extends StateMachine<infer S, string, string> ? S : never;
export type MoveOf<T> = T extends StateMachine<string, infer M, string> ? M : never;
export type EventOf<T> = T extends StateMachine<string, string, infer E> ? E : never;

/** True when some move of the table takes `from` to `to`. */
export function canTransition<S extends string>(machine: StateMachine<S>, from: string, to: S): boolean {
  return Object.values<Move<S>>(machine.moves).some((m) => m.to === to && (m.from as readonly string[]).includes(from));
}

/** The Chinese label of a state, or the raw value when the table does not know it. */
export function stateLabel(machine: StateMachine, state: string): string {
  return (machine.states as Record<string, string>)[state] ?? state;
}

/** A refused move in words: "挂牌审核状态为「已通过」，不能改为「已驳回」". */
export function refusedMoveMessage(machine: StateMachine, from: string, to: string): string {
  return `${machine.label}为「${stateLabel(machine, from)}」，不能改为「${stateLabel(machine, to)}」，请刷新后重试`;
}
