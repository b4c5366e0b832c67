package modsandbox

import (
	"cmp"
	"slices"
)

// PressureLevel grades memory use against what is available.
type PressureLevel string

// The levels, by share of the available bytes in use.
const (
	PressureNormal   PressureLevel = "NORMAL"   // below 70 %
	PressureWarning  PressureLevel = "WARNING"  // from 70 %
	PressurePressure PressureLevel = "PRESSURE" // from 85 %
	PressureCritical PressureLevel = "CRITICAL" // from 95 %
	PressureOOM      PressureLevel = "OOM"      // from 100 %
)

// GetMemoryPressure sums the linear memory of instances (suspended and
// destroyed ones hold none) and grades it against availableBytes.
func GetMemoryPressure(instances []*Instance, availableBytes uint64) PressureLevel {
	var used uint64
	for _, in := range instances {
		used += in.Metrics().MemoryBytes
	}
	switch {
	case availableBytes == 0 || used >= availableBytes:
		return PressureOOM
	case used*100 >= availableBytes*95:
		return PressureCritical
	case used*100 >= availableBytes*85:
		return PressurePressure
	case used*100 >= availableBytes*70:
		return PressureWarning
	}
	return PressureNormal
}

// Action is what Advise recommends.
type Action string

// The actions.
const (
	ActionNone          Action = "none"
	ActionLog           Action = "log"
	ActionSuspend       Action = "suspend"
	ActionEmergencySave Action = "emergency_save"
)

// Advice is Advise's recommendation: Action, and the ids of the
// instances it applies to (largest memory first).
type Advice struct {
	Level   PressureLevel
	Action  Action
	Targets []string
}

// Advise recommends what to do at a pressure level: nothing at NORMAL, a
// log entry at WARNING, suspending the largest background instance at
// PRESSURE and every background instance at CRITICAL (never the
// foreground one, never one that is not loaded), and at OOM an emergency
// save (Snapshot) of every live instance, the foreground one first.
func Advise(level PressureLevel, instances []*Instance, foregroundID string) Advice {
	adv := Advice{Level: level}
	type sized struct {
		id   string
		size uint64
	}
	var background []sized
	var live []string
	for _, in := range instances {
		st := in.Status()
		if st == StatusDestroyed || st == StatusCreated {
			continue
		}
		if in.ID() == foregroundID {
			live = append([]string{in.ID()}, live...)
			continue
		}
		live = append(live, in.ID())
		if st == StatusLoaded {
			background = append(background, sized{in.ID(), in.Metrics().MemoryBytes})
		}
	}
	slices.SortStableFunc(background, func(a, b sized) int { return cmp.Compare(b.size, a.size) })
	switch level {
	case PressureNormal:
		adv.Action = ActionNone
	case PressureWarning:
		adv.Action = ActionLog
	case PressurePressure, PressureCritical:
		adv.Action = ActionSuspend
		if len(background) > 0 && level == PressurePressure {
			background = background[:1]
		}
		for _, b := range background {
			adv.Targets = append(adv.Targets, b.id)
		}
		if len(adv.Targets) == 0 {
			adv.Action = ActionLog // nothing may be suspended
		}
	default:
		adv.Action = ActionEmergencySave
		adv.Targets = live
	}
	return adv
}
