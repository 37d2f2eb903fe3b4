// The parsed template's nodes, as client-go's util/jsonpath node.go has them (src/render/jsonpath/
// parser.ts makes them, jsonpath.ts evaluates them), and the error both raise.

export interface Param {
  value: number;
  known: boolean;
  derived: boolean;
}

export type Node =
  | { kind: 'list'; nodes: Node[] }
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'array'; params: [Param, Param, Param] }
  | { kind: 'filter'; left: Node & { kind: 'list' }; right: Node & { kind: 'list' }; operator: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'union'; nodes: Array<Node & { kind: 'list' }> }
  | { kind: 'identifier'; name: string };

export type ListNode = Node & { kind: 'list' };

export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

export function list(): ListNode {
  return { kind: 'list', nodes: [] };
}
