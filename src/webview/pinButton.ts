/**
 * The small pin button beside a marker, an Ask hit, an answer sentence or a chat answer: keeps it
 * in the corpus's notebook (the workbench, issue 24). A push-pin drawn as SVG by DOM calls (no
 * markup parsed); its click does not reach the row it sits in.
 */
import { button } from './dom';

const SVG = 'http://www.w3.org/2000/svg';

/** A push-pin icon in the text's colour. */
function pinIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '12');
  svg.setAttribute('height', '12');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  // A push-pin leaning left: head, body, needle.
  path.setAttribute('d', 'M9.8 1.2l5 5-1.4 1.4-.7-.7-2.8 2.8.4 3.2-1.4 1.4-3-3-3.5 3.5H1.7v-.7l3.5-3.5-3-3 1.4-1.4 3.2.4 2.8-2.8-.7-.7z');
  svg.append(path);
  return svg;
}

/** The pin button: `title` says what it keeps. */
export function pinButton(title: string, onClick: () => void): HTMLButtonElement {
  const b = button('icon-button pin-button', '', title, onClick);
  b.setAttribute('aria-label', title);
  b.append(pinIcon());
  return b;
}
