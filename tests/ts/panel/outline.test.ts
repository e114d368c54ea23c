// OutlineGroups: the kernel's outline grouped with src/core/groups.ts (weights and q/dq placed with their
// consumers, as drawn), counts per group, and the node positions the panel asks the kernel for.
import { describe, expect, it } from 'vitest';
import { OutlineGroups } from '../../../src/lab/panel/outline';
import type { Outline } from '../../../src/lab/panel/protocol';

const L1: [string, string] = ['layer1', 'Sequential'];
const C: [string, string] = ['layer1.conv', 'Conv2d'];
const R: [string, string] = ['layer1.relu', 'ReLU'];
const FC: [string, string] = ['fc', 'Linear'];

// x → q → dq → conv(w → dq_w) → relu → fc(b) → out ; conv and relu in layer1
const outline: Outline = {
  stacks: [[], [L1, C], [L1, R], [FC]],
  nodes: [
    ['x', 'input', 0],
    ['w', 'param', 0],
    ['q', 'quantize', 0],
    ['dq', 'dequantize', 0],
    ['dq_w', 'dequantize', 0],
    ['conv', 'compute', 1],
    ['relu', 'compute', 2],
    ['b', 'param', 0],
    ['fc', 'compute', 3],
    ['fc_1', 'compute', 3],
    ['out', 'output', 0],
  ],
  edges: [
    [0, 2],
    [2, 3],
    [3, 5],
    [1, 4],
    [4, 5],
    [5, 6],
    [6, 8],
    [7, 8],
    [8, 9],
    [9, 10],
  ],
  annotated: [5, 6, 99],
};

describe('OutlineGroups', () => {
  it('groups with the drawing rule and counts what each group holds', () => {
    const o = new OutlineGroups(outline);
    const rows = o.rows('');
    expect(rows.map((r) => [r.key, r.node_count, r.annotations, r.qdq])).toEqual([
      ['layer1', 6, 2, 3],
      ['fc', 3, 0, 0],
    ]);
    expect(o.loose('')).toBe(2); // x and out
    expect(rows.reduce((n, r) => n + r.node_count, 0) + o.loose('')).toBe(outline.nodes.length);
    expect(o.parent('layer1')).toBe('');
    expect(o.parent('')).toBeNull();
    expect(o.title('layer1')).toBe('layer1');
  });

  it('asks for a group by compact [start, end) position ranges', () => {
    const o = new OutlineGroups(outline);
    expect(o.ranges('layer1')).toEqual([[1, 7]]);
    expect(o.ranges('fc')).toEqual([[7, 10]]);
    expect(o.ranges('nope')).toEqual([]);
  });
});
