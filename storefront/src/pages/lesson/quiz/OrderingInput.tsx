import { useRef, useState } from 'react';

/**
 * Putting items in order with the keyboard: each item has Move up and Move down buttons; after a move the focus
 * follows the item (onto the button still there) and a live region says where it went.
 */
export function OrderingInput({
  items,
  order,
  onChange,
}: {
  items: { id: string; text: string }[];
  order: string[];
  onChange: (order: string[]) => void;
}) {
  const [said, setSaid] = useState('');
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const text = (id: string) => items.find((i) => i.id === id)?.text ?? id;

  function move(index: number, by: -1 | 1) {
    const next = [...order];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
    const at = index + by;
    setSaid(`${text(item!)} moved to position ${at + 1} of ${next.length}.`);
    // At either end the button pressed disappears: the other one takes the focus.
    const edge = at === 0 ? 'down' : at === next.length - 1 ? 'up' : by === -1 ? 'up' : 'down';
    requestAnimationFrame(() => buttons.current.get(`${item}:${edge}`)?.focus());
  }

  return (
    <>
      <p className="hint">Put these in order: move each one up or down.</p>
      <ol className="quiz-ordering">
        {order.map((id, index) => (
          <li key={id}>
            <span>{text(id)}</span>
            <span className="quiz-ordering-moves">
              {index > 0 && (
                <button
                  type="button"
                  className="button-quiet"
                  ref={(el) => {
                    buttons.current.set(`${id}:up`, el);
                  }}
                  onClick={() => move(index, -1)}
                >
                  Move up<span className="visually-hidden">: {text(id)}</span>
                </button>
              )}
              {index < order.length - 1 && (
                <button
                  type="button"
                  className="button-quiet"
                  ref={(el) => {
                    buttons.current.set(`${id}:down`, el);
                  }}
                  onClick={() => move(index, 1)}
                >
                  Move down<span className="visually-hidden">: {text(id)}</span>
                </button>
              )}
            </span>
          </li>
        ))}
      </ol>
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </>
  );
}
