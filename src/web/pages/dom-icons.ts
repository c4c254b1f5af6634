import { createElement } from 'lucide';
import { ICON_SVG_ATTRIBUTES, type IconNode } from '../../http/pages/icons';

/** An icon as an SVG element for the browser scripts (built with DOM calls, never from markup strings). */
export function iconSvg(node: IconNode, className = 'icon'): SVGElement {
  return createElement(node, { ...ICON_SVG_ATTRIBUTES, class: className });
}
