// A link to another view of the viewer that changes the view without loading the page again. A
// click meant for a new tab or window (a modifier key, the middle button) is left to the browser.
import type { ComponentChildren } from 'preact';
import { navigate } from '../url';

export function Link(props: {
  href: string;
  children: ComponentChildren;
  current?: boolean;
  testid?: string;
  /** -1: out of the Tab order, where the same link is reachable elsewhere (a log row's trace, also in the row's detail). */
  tabIndex?: number;
  /** Its accessible name, when the text shown is short of it. */
  label?: string;
  class?: string;
}) {
  const follow = (event: MouseEvent): void => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a
      href={props.href}
      class={props.class}
      tabIndex={props.tabIndex}
      aria-label={props.label}
      aria-current={props.current === true ? 'page' : undefined}
      data-testid={props.testid}
      onClick={follow}
    >
      {props.children}
    </a>
  );
}
