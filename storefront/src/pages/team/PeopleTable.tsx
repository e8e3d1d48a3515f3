import type { ReactNode } from 'react';

/** The team page's tables of people (members, people removed): name, email, when, and an action per row. */
export function PeopleTable({ caption, when, children }: { caption: string; when: string; children: ReactNode }) {
  return (
    <table className="members-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">{when}</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
