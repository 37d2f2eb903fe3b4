/// <reference lib="dom" />
// The shapes of the three kinds of type, drawn the same in the legend (inline SVG) and on the canvas.
import type { PageType } from '../../html-data.ts';

function svg(width: number): SVGSVGElement {
  const node = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  node.setAttribute('width', String(width));
  node.setAttribute('height', '16');
  node.setAttribute('viewBox', `0 0 ${width} 16`);
  node.setAttribute('aria-hidden', 'true');
  return node;
}
function svgShape(kind: string, x: number): SVGElement {
  const points = kind === 'warning' ? `${x},2 ${x + 5.5},12.5 ${x - 5.5},12.5` : kind === 'unconventional' ? `${x},1 ${x + 6},8 ${x},15 ${x - 6},8` : '';
  const node = points === '' ? document.createElementNS('http://www.w3.org/2000/svg', 'circle') : document.createElementNS('http://www.w3.org/2000/svg', 'polygon');
  if (points === '') {
    node.setAttribute('cx', String(x));
    node.setAttribute('cy', '8');
    node.setAttribute('r', '4');
  } else {
    node.setAttribute('points', points);
  }
  const colour = kind === 'unconventional' ? 'var(--odd)' : kind === 'warning' ? 'var(--warning)' : 'var(--normal)';
  node.style.fill = colour;
  if (kind === 'unconventional') node.style.stroke = 'var(--fg)';
  return node;
}
export function shapeSwatch(type: PageType): SVGSVGElement {
  const node = svg(16);
  node.append(svgShape(type.kind, 8));
  return node;
}
/** The legend's repeated event: a bar from first to last seen between two marks. */
export function spanSwatch(): SVGSVGElement {
  const node = svg(44);
  const bar = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bar.setAttribute('x', '7');
  bar.setAttribute('y', '5');
  bar.setAttribute('width', '30');
  bar.setAttribute('height', '6');
  bar.style.fill = 'var(--normal)';
  bar.style.opacity = '0.45';
  node.append(bar, svgShape('normal', 7), svgShape('normal', 37));
  return node;
}

/** A mark on the canvas: a circle (Normal), a triangle (Warning), an outlined diamond (any other type). */
export function shape(ctx: CanvasRenderingContext2D, kind: string, x: number, y: number): void {
  ctx.beginPath();
  if (kind === 'warning') {
    ctx.moveTo(x, y - 6);
    ctx.lineTo(x + 5.5, y + 4.5);
    ctx.lineTo(x - 5.5, y + 4.5);
  } else if (kind === 'unconventional') {
    ctx.moveTo(x, y - 7);
    ctx.lineTo(x + 6, y);
    ctx.lineTo(x, y + 7);
    ctx.lineTo(x - 6, y);
  } else {
    ctx.arc(x, y, 4, 0, Math.PI * 2);
  }
  ctx.closePath();
  ctx.fill();
  if (kind === 'unconventional') ctx.stroke();
}
