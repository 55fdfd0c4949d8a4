import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyScreen } from '../../src/ui/routing/lazyScreen.tsx';

let root: Root | null = null;
let host: HTMLElement | null = null;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
});

function mount(node: React.ReactNode) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(node));
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('lazyScreen', () => {
  it('renders the screen in the same commit once its code has arrived: no loading step, no reveal delay', async () => {
    let arrive: (screen: (props: { name: string }) => React.ReactNode) => void = () => {};
    const Screen = lazyScreen<{ name: string }>(() => new Promise((resolve) => (arrive = resolve)));
    mount(<Screen name="first" />);
    expect(host!.textContent).not.toContain('screen first');
    await act(async () => {
      arrive(({ name }) => <p>screen {name}</p>);
      await Promise.resolve();
    });
    // React's Suspense would hold this back ~300 ms after its fallback showed; here it is up at once.
    expect(host!.textContent).toContain('screen first');

    // Already loaded: a second mount renders it directly.
    act(() => root!.render(<Screen name="second" />));
    expect(host!.textContent).toContain('screen second');
  });

  it('preload() starts the download before any render, once', async () => {
    const load = vi.fn(async () => ({ name }: { name: string }) => <p>hello {name}</p>);
    const Screen = lazyScreen(load);
    void Screen.preload();
    void Screen.preload();
    await Screen.preload();
    expect(load).toHaveBeenCalledTimes(1);
    mount(<Screen name="there" />);
    expect(host!.textContent).toBe('hello there');
  });

  it('a chunk that cannot load shows the reload message, and a later visit tries again', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const Screen = lazyScreen<object>(async () => {
      attempts++;
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    mount(<Screen />);
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(host!.querySelector('[role="alert"]')).not.toBeNull();
    expect(error).toHaveBeenCalled();
    await Screen.preload().catch(() => {});
    expect(attempts).toBe(2);
    error.mockRestore();
  });
});
