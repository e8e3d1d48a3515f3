/** The school's settings page (administrators) and how the data provider reads and saves them. */
export { withSchool } from './schoolApi';
