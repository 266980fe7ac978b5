/**
 * The console's only way to build the page. Stored content is model and provider output, so it only ever
 * becomes text nodes: there is no HTML string anywhere (no innerHTML, no insertAdjacentHTML), and attributes
 * are set one by one from a closed list, never an `on*` handler or a URL the content chose.
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  readonly className?: string;
  readonly id?: string;
  /** Only in-console links (`#/...`); anything else is refused. */
  readonly href?: string;
  readonly title?: string;
  readonly role?: string;
  readonly tabIndex?: number;
  readonly ariaLabel?: string;
  readonly type?: string;
  readonly name?: string;
  readonly value?: string;
  readonly placeholder?: string;
  readonly forId?: string;
  readonly dataset?: Readonly<Record<string, string>>;
  readonly onClick?: (event: MouseEvent) => void;
  readonly onKeyDown?: (event: KeyboardEvent) => void;
  readonly onSubmit?: (event: SubmitEvent) => void;
  readonly onChange?: (event: Event) => void;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: readonly Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className !== undefined) node.className = props.className;
  if (props.id !== undefined) node.id = props.id;
  if (props.href !== undefined) {
    if (!props.href.startsWith('#/')) throw new Error(`the console links only to its own views, not ${props.href}`);
    node.setAttribute('href', props.href);
  }
  if (props.title !== undefined) node.title = props.title;
  if (props.role !== undefined) node.setAttribute('role', props.role);
  if (props.tabIndex !== undefined) node.tabIndex = props.tabIndex;
  if (props.ariaLabel !== undefined) node.setAttribute('aria-label', props.ariaLabel);
  if (props.type !== undefined) node.setAttribute('type', props.type);
  if (props.name !== undefined) node.setAttribute('name', props.name);
  if (props.value !== undefined) (node as HTMLInputElement).value = props.value;
  if (props.placeholder !== undefined) node.setAttribute('placeholder', props.placeholder);
  if (props.forId !== undefined) node.setAttribute('for', props.forId);
  for (const [key, value] of Object.entries(props.dataset ?? {})) node.dataset[key] = value;
  const { onClick, onKeyDown } = props;
  if (onClick !== undefined) node.addEventListener('click', (event) => { onClick(event as MouseEvent); });
  if (onKeyDown !== undefined) node.addEventListener('keydown', (event) => { onKeyDown(event as KeyboardEvent); });
  if (props.onSubmit !== undefined) node.addEventListener('submit', props.onSubmit as EventListener);
  if (props.onChange !== undefined) node.addEventListener('change', props.onChange);
  append(node, children);
  return node;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces a node's children. */
export function replace(parent: Node, ...children: readonly Child[]): void {
  while (parent.firstChild !== null) parent.removeChild(parent.firstChild);
  append(parent, children);
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with numeric or string attributes (charts are drawn, never parsed from markup). */
export function svg(tag: string, attributes: Readonly<Record<string, string | number>> = {}, ...children: readonly Child[]): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  append(node, children);
  return node;
}

/** `12:34:56.789` in local time. */
export function clock(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

export function dateTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 10)} ${clock(ms)}`;
}
