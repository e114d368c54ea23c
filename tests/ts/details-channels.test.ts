// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
import { describe, expect, it } from 'vitest';
import { observerRows } from '../../src/core/details';
import { translator } from '../../src/core/i18n';
import type { Observer } from '../../src/core/types';

const base: Observer = {
  id: 'o1',
  names: ['activation_post_process_1'],
  nodes: ['activation_post_process_1'],
  class: 'MinMaxObserver',
  dtype: 'int8',
  qscheme: 'per_tensor_symmetric',
  quant_min: -127,
  quant_max: 127,
  ch_axis: null,
  observes: 'conv2_weight',
  serves: [],
  group: 1,
  implicit: false,
  min: [-9],
  max: [9],
  scale: [0.07],
  zero_point: [0],
};

const channels = {
  count: 16,
  source: 'weight' as const,
  median_range: 1.5,
  max_range: 131,
  worst: 0,
  ratio: 87.3,
  outlier: true,
};

describe('the details drawer: per-channel ranges of an observer', () => {
  it('shows one line with the widest channel and says outlier when Python said so', () => {
    const rows = observerRows({ ...base, channels });
    const line = rows.find(([k]) => k === 'channels');
    expect(line?.[1]).toContain('channel 0');
    expect(line?.[1]).toContain('87.3× the median');
    expect(line?.[1]).toContain('an outlier');
    const calm = observerRows({ ...base, channels: { ...channels, ratio: 1.2, outlier: false } });
    expect(calm.find(([k]) => k === 'channels')?.[1]).not.toContain('outlier');
  });

  it('has no line without the optional field, and speaks zh-TW', () => {
    expect(observerRows(base).some(([k]) => k === 'channels')).toBe(false);
    const zh = observerRows({ ...base, channels }, translator('zh-TW'));
    expect(zh.some(([k, v]) => k === '通道' && v.includes('離群'))).toBe(true);
  });
});
