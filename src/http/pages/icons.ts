/**
 * The 18 achievement icons of spec §2.7, drawn with Lucide's icon data: crisp SVG in both colour
 * schemes and on machines without an emoji font, the same shapes on the server and in the browser.
 */
import {
  Calendar,
  Coins,
  Crown,
  Flame,
  Gem,
  Heart,
  type IconNode,
  Joystick,
  Lock,
  Map as MapIcon,
  Moon,
  Pen,
  Rocket,
  Shield,
  Skull,
  Star,
  Target,
  Ticket,
  Trophy,
  Zap,
} from 'lucide';

/**
 * The icons an achievement may have (spec §2.7): the pages' vocabulary, which the developer portal
 * validates achievement definitions against. Defined here so the layout needs no module.
 */
export const ICON_KEYS = [
  'trophy', 'coin', 'joystick', 'calendar', 'star', 'gem', 'pen', 'heart', 'fire',
  'crown', 'rocket', 'ticket', 'moon', 'bolt', 'target', 'shield', 'skull', 'map',
] as const;
export type IconKey = (typeof ICON_KEYS)[number];

export type { IconNode };

export const ICON_NODES: Record<IconKey, IconNode> = {
  trophy: Trophy, coin: Coins, joystick: Joystick, calendar: Calendar, star: Star, gem: Gem, pen: Pen, heart: Heart, fire: Flame,
  crown: Crown, rocket: Rocket, ticket: Ticket, moon: Moon, bolt: Zap, target: Target, shield: Shield, skull: Skull, map: MapIcon,
};

/** A secret achievement the player has not unlocked yet. */
export const SECRET_ICON: IconNode = Lock;

/** The icon of a key, or the trophy for a key this release does not know. */
export function iconNode(key: unknown): IconNode {
  return ICON_NODES[key as IconKey] ?? ICON_NODES.trophy;
}

/** Attributes of every icon's `<svg>`: decoration only (the name is always written beside it). */
export const ICON_SVG_ATTRIBUTES = {
  xmlns: 'http://www.w3.org/2000/svg',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': 2,
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
  'aria-hidden': 'true',
  focusable: 'false',
} as const;
