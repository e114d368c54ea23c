// What the model of one pane's drawing is made from: the facts, the hierarchy, the current placement and which
// box stands for each node. No DOM: frame.ts makes the painters' Frame from it (box looks, edge items, texts).
import type { Badge, Summary } from './badges';
import type { Facts } from './facts';
import type { Hierarchy } from './groups';
import type { Heat } from './heat';
import type { Box, Placement } from './hier-layout';
import type { Tr } from './i18n';
import type { Id } from './types';

export interface Scene {
  facts: Facts;
  hier: Hierarchy;
  placement: Placement;
  /** node id → key of the box that shows it (the node, or its outermost closed group) */
  repOf: Map<Id, string>;
  notes?: Record<Id, string>;
  /** the pane's per-node overlay, if any */
  heat: Heat | null;
  /** the UI's words in the view's locale */
  t: Tr;
  /** what each group holds (badges on closed groups) */
  summary?: Map<string, Summary>;
  /** a closed group's badges, made once per group per view (GroupBadges); without it they are made from `summary` */
  badges?: (key: string) => Badge[];
  /** nodes and closed groups, for the edge/box crossing test */
  solid: Box[];
}
