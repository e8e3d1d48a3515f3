/** Labels of the dashboard and the Finance page: cards, charts, periods and exports. */
export const finance = {};
