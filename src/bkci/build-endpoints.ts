// Where bk-ci's build endpoints live (v4, both front doors), apart from their answers' shapes:
// what an operation calls is one list, what reads the answers another.
import { onBoth } from './routes.ts';

export const BUILD_START = onBoth('POST', 'v4/projects/{projectId}/build_start');
export const BUILD_STATUS = onBoth('GET', 'v4/projects/{projectId}/build_status');
export const BUILD_STOP = onBoth('POST', 'v4/projects/{projectId}/build_stop');
/** A write whose outcome can be unknown: POST, so never sent again once it may have reached bk-ci (src/http/retry.ts). */
export const BUILD_RETRY = onBoth('POST', 'v4/projects/{projectId}/build_retry');
export const BUILD_DETAIL = onBoth('GET', 'v4/projects/{projectId}/build_detail');
export const BUILD_HISTORIES = onBoth('GET', 'v4/projects/{projectId}/build_histories');
export const LOG_AFTER = onBoth('GET', 'v4/projects/{projectId}/logs/after_line_logs');
export const FILE_INFO = onBoth('GET', 'v4/projects/{projectId}/artifactories/file_info');
export const USER_DOWNLOAD_URL = onBoth('GET', 'v4/projects/{projectId}/artifactories/user_download_url');
export const MANUAL_START_STAGE = onBoth('POST', 'v4/projects/{projectId}/manual_start_build_stage');
export const MANUAL_REVIEW = onBoth('POST', 'v4/projects/{projectId}/manual_review');
/** A read: the names go in the body, nothing changes (docs/bkci/artifacts-and-variables.md). */
export const BUILD_VARIABLES = onBoth('POST', 'v4/projects/{projectId}/build_variables', 'read');
