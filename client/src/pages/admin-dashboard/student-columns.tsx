import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import SaveIcon from '@mui/icons-material/Save';
import { GridActionsCellItem, GridRowModes, type GridColDef, type GridRowModesModel } from '@mui/x-data-grid';
import { BOARDS, GENDERS, GRADES } from '@tc/domain/constants';
import { displayToIsoDate, isoToDisplayDate, isValidIsoDate } from '@tc/domain/dates';
import { gradeLabel } from '@tc/domain/registration';
import type { StudentRecord } from '@tc/domain/student';

/**
 * The date of birth as the grid shows and edits it: DD/MM/YYYY (product.md §7),
 * whatever the browser's locale. Saving turns it back into YYYY-MM-DD; a date that
 * cannot be read is sent as typed, and the server names the problem.
 */
export function dobForSaving(value: unknown): string {
  const text = String(value ?? '');
  return displayToIsoDate(text) ?? text;
}

interface ColumnActions {
  rowModesModel: GridRowModesModel;
  onEdit: (objectId: string) => void;
  onSave: (objectId: string) => void;
  onCancel: (objectId: string) => void;
}

/** The admin table's columns (seed-spec §2; product.md §7: all but ID and Full Name editable). */
export function studentColumns({
  rowModesModel,
  onEdit,
  onSave,
  onCancel,
}: ColumnActions): GridColDef<StudentRecord>[] {
  return [
    { field: 'id', headerName: 'ID', type: 'number', width: 80, align: 'left', headerAlign: 'left' },
    { field: 'fullname', headerName: 'Full Name', flex: 1, minWidth: 180 },
    {
      field: 'gender',
      headerName: 'Gender',
      type: 'singleSelect',
      valueOptions: [...GENDERS],
      width: 120,
      editable: true,
    },
    { field: 'mobile', headerName: 'Mobile', width: 140, editable: true },
    { field: 'email', headerName: 'Email', flex: 1, minWidth: 220, editable: true },
    {
      field: 'dob',
      headerName: 'Date of Birth',
      width: 150,
      editable: true,
      valueGetter: (value) => (typeof value === 'string' && isValidIsoDate(value) ? isoToDisplayDate(value) : value),
    },
    {
      field: 'board',
      headerName: 'Board',
      type: 'singleSelect',
      valueOptions: [...BOARDS],
      width: 110,
      editable: true,
    },
    {
      field: 'grade',
      headerName: 'Grade',
      type: 'singleSelect',
      valueOptions: GRADES.map((grade) => ({ value: grade, label: gradeLabel(grade) })),
      width: 100,
      editable: true,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: 'Edit',
      width: 110,
      getActions: ({ id }) => {
        const objectId = String(id);
        if (rowModesModel[objectId]?.mode === GridRowModes.Edit) {
          return [
            <GridActionsCellItem
              key="save"
              icon={<SaveIcon />}
              label="Save"
              color="primary"
              onClick={() => onSave(objectId)}
            />,
            <GridActionsCellItem key="cancel" icon={<CloseIcon />} label="Cancel" onClick={() => onCancel(objectId)} />,
          ];
        }
        return [<GridActionsCellItem key="edit" icon={<EditIcon />} label="Edit" onClick={() => onEdit(objectId)} />];
      },
    },
  ];
}
